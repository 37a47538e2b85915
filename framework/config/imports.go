package config

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// app.config.import names more settings to read, in any settings file or
// on the command line or in the environment, as a comma-separated list:
//
//	app.config.import=optional:file:./extra.properties,secrets/,configtree:/etc/config/
//
// Each entry is a settings file (.properties, .yml or .yaml), a directory
// read as a location is (its application.* files), or with "configtree:" a
// config tree (see configtree.go). "optional:" lets it be missing. A
// relative path is relative to the file that imports it (in the embedded
// resources for an embedded file), or to the working directory for an
// import on the command line or in the environment; with "file:" it is
// always relative to the working directory, as Spring reads "file:"
// locations. Placeholders in the list resolve
// against the command line, APP_APPLICATION_JSON and the environment.
//
// What is imported overrides the document that imports it, and a later
// entry overrides an earlier one. An import on the command line or in the
// environment overrides every settings file. A file imported under the
// active profiles also reads its profile files (extra-dev.properties),
// just above it. Imports nest up to maxImportDepth; a file already read is
// not read again, which also ends cycles.

const keyImport = "app.config.import"

// maxImportDepth bounds how deeply imported files import others.
const maxImportDepth = 8

// importList reads what the import list v names. from is the file that
// holds v (the zero settingsFile for the command line and the
// environment), bound says whether that document was read because of the
// profiles, and depth is how deeply it is itself imported.
func (l *loader) importList(v Value, from settingsFile, bound bool, depth int) []*source {
	if depth > maxImportDepth {
		l.errs = append(l.errs, &SettingError{Value: v, Reason: fmt.Sprintf("imports nest more than %d deep", maxImportDepth)})
		return nil
	}
	var out []*source
	for _, entry := range splitList(v.Resolved) {
		rest, optional := strings.CutPrefix(entry, "optional:")
		found, sources := false, []*source(nil)
		if dir, ok := strings.CutPrefix(rest, "configtree:"); ok {
			found, sources = l.importConfigTree(v, entry, dir, bound)
		} else {
			target, fromWorkingDir := strings.CutPrefix(rest, "file:")
			relativeTo := from
			if fromWorkingDir {
				relativeTo = settingsFile{}
			}
			found, sources = l.importFiles(entry, target, relativeTo, bound, depth)
		}
		if !found && !optional {
			l.errs = append(l.errs, &SettingError{Value: v, Reason: fmt.Sprintf("import %q does not exist; prefix it with optional: if it may be missing", entry)})
		}
		out = append(out, sources...)
	}
	return out
}

// importFiles reads the settings file or directory at target, an entry of
// an import list, and reports whether it exists.
func (l *loader) importFiles(entry, target string, from settingsFile, bound bool, depth int) (bool, []*source) {
	f := settingsFile{via: entry}
	switch {
	case filepath.IsAbs(target):
		f.path, f.shown = target, target
	case from.fsys != nil:
		// An embedded file imports from the embedded resources.
		f.fsys = from.fsys
		f.path = path.Join(path.Dir(from.path), target)
		f.shown = f.path
	case from.path != "":
		f.path, f.shown = filepath.Join(filepath.Dir(from.path), target), filepath.Join(filepath.Dir(from.shown), target)
	default:
		f.path, f.shown = inDir(l.opts.Dir, target), target
	}
	isDir := strings.HasSuffix(target, "/") || f.isDir()
	var files []settingsFile
	if isDir {
		files = f.directoryFiles("")
	} else {
		files = []settingsFile{f}
	}
	found := isDir && f.exists()
	var out []*source
	for _, file := range files {
		if file.exists() {
			found = true
			out = append(out, l.fileSources(file, bound, false, depth)...)
		}
	}
	// The profile files of an import are read with it, once the profiles
	// are known, just above it.
	for _, p := range l.profiles {
		for _, file := range f.profileFiles(isDir, p) {
			out = append(out, l.fileSources(file, true, true, depth)...)
		}
	}
	return found, out
}

// importConfigTree reads the config tree at dir, which the import list v
// names in entry.
func (l *loader) importConfigTree(v Value, entry, dir string, bound bool) (bool, []*source) {
	opened := inDir(l.opts.Dir, dir)
	if info, err := os.Stat(opened); err != nil || !info.IsDir() {
		return false, nil
	}
	src, err := readConfigTree(opened, strings.TrimSuffix(dir, "/"), "Config resource 'config tree ["+strings.TrimSuffix(dir, "/")+"]' via location '"+entry+"'")
	if err != nil {
		l.errs = append(l.errs, &SettingError{Value: v, Reason: "reading the config tree: " + err.Error()})
		return true, nil
	}
	src.profileBound = bound
	return true, []*source{src}
}
