package config

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Settings files are found at locations: by default ./, ./config/ and
// each direct subdirectory of ./config/ in lexical order (./config/*/),
// later locations winning. app.config.location replaces these;
// app.config.additional-location adds more after them. A location, like
// an entry of app.config.import, is
//
//   - a directory (ending in a slash, or found to be one), where the files
//     are named application.* (app.config.name changes the name, or gives
//     several: later names win);
//   - one file; a file whose name has no settings extension takes a hint,
//     file:app.conf[.properties] or [extension=.properties], and a file not
//     in UTF-8 an encoding, [encoding=ISO-8859-1];
//   - a pattern with one "*" standing for each subdirectory of its parent,
//     lexically ordered and hidden ones skipped: config/*/ (the directories)
//     or config/*/app.properties (that file in each).
//
// "file:" may prefix a path; "optional:" lets it be missing. Several
// locations joined by ";" form a group, whose profile files are read
// profile by profile across the group, as Spring's default locations are.
// Every other prefix (configserver:, vault:, classpath: ...) names a
// location type this framework does not read: it is refused, or under
// optional: skipped with a warning.

// keyConfigName names the settings files a directory holds.
const keyConfigName = "app.config.name"

// keyOnNotFound says what a location or import that does not exist does.
const keyOnNotFound = "app.config.on-not-found"

// piece is one location as written: an entry of a location or import
// list, or one part of a ";" group.
type piece struct {
	raw      string // as written, for source names and reports
	optional bool
	path     string // without its prefixes and hints
	fromWD   bool   // "file:" was given: relative to the working directory
	ext      string // the extension hint, "" for none
	encoding string // the encoding hint, "" for none
}

// schemePrefix matches a location type prefix such as "configserver:".
// One letter is not taken for one, so that a drive letter is a path.
var schemePrefix = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]+):`)

// supportedTypes lists the location types read here, for reports.
const supportedTypes = "a path, file:<path> or configtree:<directory>, each optionally after optional:"

// unsupportedTypeError is a location of a type this framework does not read.
type unsupportedTypeError struct{ scheme string }

func (e unsupportedTypeError) Error() string {
	return fmt.Sprintf("the location type %s: is not supported; supported are %s", e.scheme, supportedTypes)
}

// parsePiece reads one location as written.
func parsePiece(raw string) (piece, error) {
	p := piece{raw: raw}
	rest, optional := strings.CutPrefix(raw, "optional:")
	p.optional = optional
	if m := schemePrefix.FindStringSubmatch(rest); m != nil {
		if m[1] != "file" {
			return p, unsupportedTypeError{scheme: m[1]}
		}
		rest, p.fromWD = rest[len(m[0]):], true
	}
	p.path, p.ext, p.encoding = splitHints(rest)
	if p.encoding != "" && !isLatin1(p.encoding) && !isUTF8(p.encoding) {
		return p, fmt.Errorf("the encoding %s is not supported; supported are UTF-8 (the default) and ISO-8859-1", p.encoding)
	}
	return p, nil
}

// splitHints takes the hints off a path: a trailing "[.ext]",
// "[extension=.ext]" or "[encoding=name]", as Spring's FileHint reads
// them. A bracket that is not a hint stays part of the path.
func splitHints(s string) (p, ext, encoding string) {
	p = s
	for strings.HasSuffix(p, "]") {
		open := strings.LastIndexByte(p, '[')
		if open < 0 {
			break
		}
		hint := strings.TrimSpace(p[open+1 : len(p)-1])
		name, value, hasValue := strings.Cut(hint, "=")
		switch name, value = strings.TrimSpace(name), strings.TrimSpace(value); {
		case !hasValue && strings.HasPrefix(hint, "."):
			ext = hint
		case hasValue && name == "extension" && strings.HasPrefix(value, "."):
			ext = value
		case hasValue && name == "encoding" && value != "":
			encoding = value
		default:
			return p, ext, encoding
		}
		p = p[:open]
	}
	return p, ext, encoding
}

// candidate is a settings file that a location resolves to.
type candidate struct {
	file settingsFile
	// profileSpecific marks a profile file: Spring's PROFILE_SPECIFIC
	// option, which ranks it above the files of the location that imports
	// its base file (see moveProfileSpecific).
	profileSpecific bool
	// tree marks a config tree, file its directory.
	tree bool
}

// resolved is what one entry of a location or import list resolves to.
type resolved struct {
	candidates []candidate
	// missing, when not "", says why a location that must exist does not.
	missing string
}

// resolvePieces returns the settings files of the group of pieces, lowest
// precedence first: each piece's own files, then for each profile in turn
// each piece's profile files. from is the file that names them (the zero
// settingsFile for the working directory).
func (l *loader) resolvePieces(pieces []piece, from settingsFile, profiles []string) (resolved, error) {
	var r resolved
	type place struct {
		p     piece
		dirs  []settingsFile // the directories it stands for; nil for files
		files []settingsFile // the files it stands for; nil for directories
	}
	var places []place
	for _, p := range pieces {
		pl := place{p: p}
		f := l.pieceFile(p, from)
		pattern := strings.Contains(p.path, "*")
		switch {
		case pattern:
			dirs, isDirPattern, err := wildcardDirs(f)
			if err != nil {
				return r, err
			}
			if isDirPattern {
				pl.dirs = dirs
				if len(dirs) == 0 && !p.optional {
					r.missing = fmt.Sprintf("location %q contains no subdirectories", p.raw)
				}
				break
			}
			name := path.Base(filepath.ToSlash(f.path))
			for _, d := range dirs {
				if file := d.sibling(d.join(d.path, name), d.join(d.shown, name)); file.exists() {
					pl.files = append(pl.files, file)
				}
			}
			if len(pl.files) == 0 && !p.optional {
				r.missing = fmt.Sprintf("location %q matches no file", p.raw)
			}
		case p.ext == "" && (strings.HasSuffix(p.path, "/") || f.isDir()):
			pl.dirs = []settingsFile{f}
			if !p.optional && !f.isDir() {
				r.missing = fmt.Sprintf("location %q does not exist; prefix it with optional: if it may be missing", p.raw)
			}
		default:
			if p.ext == "" && !slices.Contains(extensions, path.Ext(f.path)) {
				if p.optional {
					continue
				}
				return r, fmt.Errorf("%q is not a settings file: settings files are .properties, .yml or .yaml; a directory ends in /, and a file of another name takes a hint: %s[.properties]", p.raw, p.path)
			}
			pl.files = []settingsFile{f}
			if !p.optional && !f.exists() {
				r.missing = fmt.Sprintf("location %q does not exist; prefix it with optional: if it may be missing", p.raw)
			}
		}
		places = append(places, pl)
	}
	add := func(files []settingsFile, profileSpecific bool) {
		for _, f := range files {
			r.candidates = append(r.candidates, candidate{file: f, profileSpecific: profileSpecific})
		}
	}
	for _, pl := range places {
		for _, d := range pl.dirs {
			add(d.directoryFiles(l.names, ""), false)
		}
		add(pl.files, false)
	}
	for _, prof := range profiles {
		for _, pl := range places {
			for _, d := range pl.dirs {
				add(d.directoryFiles(l.names, prof), true)
			}
			for _, f := range pl.files {
				add([]settingsFile{f.profileVariant(prof)}, true)
			}
		}
	}
	return r, nil
}

// pieceFile returns the file or directory that p names. A relative path
// is relative to from's directory, in the embedded resources for an
// embedded file; with "file:", or named on the command line or in the
// environment, relative to the working directory.
func (l *loader) pieceFile(p piece, from settingsFile) settingsFile {
	f := settingsFile{via: p.raw, ext: p.ext, encoding: p.encoding}
	switch {
	case filepath.IsAbs(p.path):
		f.path, f.shown = p.path, p.path
	case from.fsys != nil:
		f.fsys = from.fsys
		f.path = path.Join(path.Dir(from.path), p.path)
		f.shown = f.path
	case from.path != "" && !p.fromWD:
		f.path, f.shown = filepath.Join(filepath.Dir(from.path), p.path), filepath.Join(filepath.Dir(from.shown), p.path)
	default:
		f.path, f.shown = inDir(l.opts.Dir, p.path), filepath.Clean(p.path)
	}
	// Joining drops a trailing slash, which says "a directory" here.
	if strings.HasSuffix(p.path, "/") {
		f.path = strings.TrimSuffix(f.path, "/") + "/"
		f.shown = strings.TrimSuffix(f.shown, "/") + "/"
	}
	return f
}

// wildcardDirs returns the subdirectories that the one "*" of f's path
// stands for, lexically ordered, and whether the pattern names those
// directories (config/*/) rather than a file in each (config/*/x.yml).
// Hidden subdirectories are skipped: a Kubernetes config map mounted at
// ./config/ keeps its real files in ..data and the like. A parent that is
// missing has none.
func wildcardDirs(f settingsFile) ([]settingsFile, bool, error) {
	p := filepath.ToSlash(f.path)
	star := strings.Index(p, "*")
	isDirPattern := strings.HasSuffix(p, "*/")
	switch {
	case strings.Count(p, "*") > 1:
		return nil, false, fmt.Errorf("location %q may contain one wildcard only", f.via)
	case !strings.HasPrefix(p[star:], "*/") || (star > 0 && p[star-1] != '/'):
		return nil, false, fmt.Errorf("location %q must have its wildcard as a whole directory name: dir/*/ or dir/*/file.yml", f.via)
	case !isDirPattern && strings.Contains(p[star+2:], "/"):
		return nil, false, fmt.Errorf("location %q must end with */ or with */ and a file name", f.via)
	}
	parent := f.sibling(filepath.FromSlash(p[:star]), f.shown[:strings.Index(f.shown, "*")])
	var entries []fs.DirEntry
	var err error
	if f.fsys != nil {
		entries, err = fs.ReadDir(f.fsys, path.Clean(parent.path))
	} else {
		entries, err = os.ReadDir(parent.path)
	}
	if err != nil {
		return nil, isDirPattern, nil
	}
	var dirs []settingsFile
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || (f.fsys == nil && !isDirEntry(parent.path, e)) || (f.fsys != nil && !e.IsDir()) {
			continue
		}
		dirs = append(dirs, parent.sibling(parent.join(parent.path, e.Name())+"/", parent.shown+e.Name()+"/"))
	}
	return dirs, isDirPattern, nil
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
	// ext is the extension hint, which gives the format of a file whose
	// name has none; encoding is the encoding hint ("" for UTF-8).
	ext, encoding string
}

// extensions are those of settings files, lowest precedence first: at one
// location .properties wins over .yml, which wins over .yaml, as Spring's
// property source loaders are ordered.
var extensions = []string{".yaml", ".yml", ".properties"}

// directoryFiles returns the settings files in the directory f for
// profile p ("" for the files that are not profile-specific), lowest
// precedence first: name by name, each name's extensions in turn.
func (f settingsFile) directoryFiles(names []string, p string) []settingsFile {
	var out []settingsFile
	for _, base := range names {
		if p != "" {
			base += "-" + p
		}
		for _, ext := range extensions {
			out = append(out, f.sibling(f.join(f.path, base+ext), f.join(f.shown, base+ext)))
		}
	}
	return out
}

// profileVariant returns the profile file of the file f for profile p:
// extra-p.yml for extra.yml, and for a file named with a hint (app.conf
// read as .properties) app.conf-p.
func (f settingsFile) profileVariant(p string) settingsFile {
	ext := path.Ext(f.path)
	if f.ext != "" {
		ext = ""
	}
	return f.sibling(strings.TrimSuffix(f.path, ext)+"-"+p+ext, strings.TrimSuffix(f.shown, ext)+"-"+p+ext)
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

func (f settingsFile) read(ctx context.Context) ([]byte, error) {
	return readSettingsFile(ctx, f.fsys, f.path)
}

func (f settingsFile) stat() (fs.FileInfo, error) {
	if f.fsys != nil {
		return fs.Stat(f.fsys, path.Clean(f.path))
	}
	return os.Stat(f.path)
}

func (f settingsFile) exists() bool {
	info, err := f.stat()
	return err == nil && !info.IsDir()
}

func (f settingsFile) isDir() bool {
	info, err := f.stat()
	return err == nil && info.IsDir()
}

// format is the extension that says how to read the file: its hint, or
// its own.
func (f settingsFile) format() string {
	if f.ext != "" {
		return f.ext
	}
	return path.Ext(f.path)
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
