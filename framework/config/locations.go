package config

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Settings files are found at locations: by default ./, ./config/ and
// each direct subdirectory of ./config/ in lexical order (./config/*/),
// later locations winning. app.config.location replaces these;
// app.config.additional-location adds more after them. A location is a
// directory (ending in a slash, or found to be one), where the files are
// named application.*, or one file. A location ending in "*/" stands for
// each subdirectory of its parent.

// location is one place to look for settings files.
type location struct {
	raw      string // as given, for source names
	path     string
	optional bool
	key      string // the setting that named it; empty for the defaults
	origin   string // where that setting came from
	secrets  []string
}

// check fails for a location that must exist and does not: a folder that
// is missing, or a file. A folder without settings files is fine.
func (l location) check(dir string) error {
	if l.optional {
		return nil
	}
	if _, err := os.Stat(inDir(dir, l.path)); err != nil {
		return &SettingError{
			Value:  Value{Key: l.key, Raw: l.raw, Origin: l.origin, secrets: l.secrets},
			Reason: fmt.Sprintf("location %q does not exist; prefix it with optional: if it may be missing", l.path),
		}
	}
	return nil
}

// files returns the settings files of the location for profile p ("" for
// the files that are not profile-specific), lowest precedence first.
func (l location) files(dir, p string) []settingsFile {
	f := settingsFile{path: inDir(dir, l.path), shown: l.path, via: l.raw}
	isDir := strings.HasSuffix(l.path, "/") || f.isDir()
	if p == "" {
		if isDir {
			return f.directoryFiles("")
		}
		return []settingsFile{f}
	}
	return f.profileFiles(isDir, p)
}

// searchLocations reads app.config.location (which replaces the default
// locations) and app.config.additional-location (which adds to them) from
// env, and expands each location ending in "*/" in dir.
func searchLocations(env *Environment, dir string) ([]location, error) {
	env.loadKeys = append(env.loadKeys, keyLocation, keyAddLoc)
	var locs []location
	add := func(list []string, v Value) {
		for _, r := range list {
			p, optional := strings.CutPrefix(r, "optional:")
			p, _ = strings.CutPrefix(p, "file:")
			loc := location{raw: r, path: p, optional: optional, key: v.Key, secrets: v.secrets}
			if v.Key != "" {
				loc.origin = v.Origin
			}
			locs = append(locs, expandWildcard(loc, dir)...)
		}
	}
	if v, ok, err := env.Lookup(keyLocation); err != nil {
		return nil, err
	} else if ok {
		add(splitList(v.Resolved), v)
	} else {
		add(defaultLocations, Value{})
	}
	if v, ok, err := env.Lookup(keyAddLoc); err != nil {
		return nil, err
	} else if ok {
		add(splitList(v.Resolved), v)
	}
	return locs, nil
}

// expandWildcard returns loc itself, or for a location ending in "*/" one
// location per subdirectory of its parent, in lexical order. Hidden
// subdirectories are skipped: a Kubernetes config map mounted at ./config/
// keeps its files in ..data and links to them.
func expandWildcard(loc location, dir string) []location {
	parent, ok := strings.CutSuffix(loc.path, "*/")
	if !ok {
		return []location{loc}
	}
	entries, err := os.ReadDir(inDir(dir, parent))
	if err != nil {
		// A missing parent has no subdirectories; a mandatory wildcard
		// location then fails its check as a whole.
		loc.path = parent
		return []location{loc}
	}
	var out []location
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || !isDirEntry(inDir(dir, parent), e) {
			continue
		}
		sub := loc
		sub.path = parent + e.Name() + "/"
		sub.optional = true
		out = append(out, sub)
	}
	return out
}

// isDirEntry reports whether e, in the directory parent, is a directory or
// a link to one.
func isDirEntry(parent string, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	info, err := os.Stat(filepath.Join(parent, e.Name()))
	return err == nil && info.IsDir()
}

// inDir returns p as opened from the working directory dir.
func inDir(dir, p string) string {
	if filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// settingsFile is one settings file, or a directory of them, in the
// embedded resources (fsys set) or on disk.
type settingsFile struct {
	fsys  fs.FS  // nil for the disk
	path  string // to open
	shown string // as origins show it
	via   string // the location or import that named it; "" for the embedded files
}

// extensions are those of settings files, lowest precedence first: at one
// location .properties wins over .yml, which wins over .yaml, as Spring's
// property source loaders are ordered.
var extensions = []string{".yaml", ".yml", ".properties"}

// directoryFiles returns the settings files in the directory f for
// profile p ("" for the files that are not profile-specific), lowest
// precedence first.
func (f settingsFile) directoryFiles(p string) []settingsFile {
	base := "application"
	if p != "" {
		base += "-" + p
	}
	var out []settingsFile
	for _, ext := range extensions {
		out = append(out, f.sibling(f.join(f.path, base+ext), f.join(f.shown, base+ext)))
	}
	return out
}

// profileFiles returns the profile files of f for profile p: those in the
// directory f, or for a file extra.yml the file extra-p.yml.
func (f settingsFile) profileFiles(isDir bool, p string) []settingsFile {
	if isDir {
		return f.directoryFiles(p)
	}
	ext := path.Ext(f.path)
	return []settingsFile{f.sibling(strings.TrimSuffix(f.path, ext)+"-"+p+ext, strings.TrimSuffix(f.shown, ext)+"-"+p+ext)}
}

func (f settingsFile) sibling(path, shown string) settingsFile {
	f.path, f.shown = path, shown
	return f
}

func (f settingsFile) join(dir, name string) string {
	if f.fsys != nil {
		return path.Join(dir, name)
	}
	return filepath.Join(dir, name)
}

func (f settingsFile) read() ([]byte, error) {
	if f.fsys != nil {
		return fs.ReadFile(f.fsys, f.path)
	}
	return os.ReadFile(f.path)
}

func (f settingsFile) stat() (fs.FileInfo, error) {
	if f.fsys != nil {
		return fs.Stat(f.fsys, f.path)
	}
	return os.Stat(f.path)
}

func (f settingsFile) exists() bool {
	_, err := f.stat()
	return err == nil
}

func (f settingsFile) isDir() bool {
	info, err := f.stat()
	return err == nil && info.IsDir()
}

// id tells files apart, embedded from on disk. A relative path is made
// absolute against wd, the working directory ("" when it could not be
// had), as filepath.Abs would make it, without asking the system for the
// working directory for every file: Load asks once.
func (f settingsFile) id(wd string) string {
	switch {
	case f.fsys != nil:
		return "embedded:" + path.Clean(f.path)
	case filepath.IsAbs(f.path):
		return "file:" + filepath.Clean(f.path)
	case wd != "":
		return "file:" + filepath.Join(wd, f.path)
	}
	return "file:" + f.path
}

// name is how origins and reports name the file.
func (f settingsFile) name() string {
	if f.fsys != nil {
		return "embedded [" + f.shown + "]"
	}
	return "file [" + f.shown + "]"
}

// sourceName is how /actuator/env names the file's source, in Spring's
// wording.
func (f settingsFile) sourceName() string {
	name := "Config resource '" + f.name() + "'"
	if f.via != "" {
		name += " via location '" + f.via + "'"
	}
	return name
}

// origin is where in the file p is defined.
func (f settingsFile) origin(p Property) string {
	if p.Column > 0 {
		return fmt.Sprintf("%s line %d column %d", f.name(), p.Line, p.Column)
	}
	return fmt.Sprintf("%s line %d", f.name(), p.Line)
}
