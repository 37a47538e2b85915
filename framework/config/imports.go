package config

import (
	"fmt"
	"os"
	"strings"
)

// app.config.import names more settings to read, in any settings file or
// on the command line or in the environment, as a comma-separated list:
//
//	app.config.import=optional:file:./extra.properties,secrets/,configtree:/etc/config/
//
// Each entry is a location (see locations.go: a settings file, a directory
// read for its application.* files, a pattern) or with "configtree:" a
// config tree (see configtree.go). "optional:" lets it be missing. A
// relative path is relative to the file that imports it (in the embedded
// resources for an embedded file), or to the working directory for an
// import on the command line or in the environment; with "file:" it is
// always relative to the working directory, as Spring reads "file:"
// locations. Placeholders in the list resolve against the command line,
// the environment and the settings read so far (see contributors.go). An
// empty list imports nothing.
//
// What is imported overrides the document that imports it, and a later
// entry overrides an earlier one. An import on the command line or in the
// environment overrides every settings file. A file imported under the
// active profiles also reads its profile files (extra-dev.properties),
// which override every file of the list, as in Spring. Imports nest up to
// maxImportDepth; a file already read is not read again, which also ends
// cycles.

const keyImport = "app.config.import"

// maxImportDepth bounds how deeply imported files import others.
const maxImportDepth = 8

// importList reads what c's import list names, with the profiles' files
// when profiles is not nil, and returns the documents read, highest
// first, as c's children for the phase.
func (l *loader) importList(c *contributor, profiles []string, phase int) []*contributor {
	var all []candidate
	for _, entry := range splitList(c.imports.Resolved) {
		if dir, ok := strings.CutPrefix(strings.TrimPrefix(entry, "optional:"), "configtree:"); ok {
			if f, ok := l.configTree(c, entry, dir); ok {
				all = append(all, candidate{file: f, tree: true})
			}
			continue
		}
		raws := []string{entry}
		if c.groups {
			raws = strings.Split(entry, ";")
		}
		var pieces []piece
		for _, raw := range raws {
			p, err := parsePiece(strings.TrimSpace(raw))
			switch {
			case err != nil && p.optional:
				l.warn(Warning{Message: fmt.Sprintf("skipping %q: %v", p.raw, err), Key: importKey(c), Origin: OriginWithoutValue(c.imports.Origin)})
			case err != nil:
				l.errs = append(l.errs, &SettingError{Value: c.imports, Reason: fmt.Sprintf("%q: %v", p.raw, err)})
			default:
				pieces = append(pieces, p)
			}
		}
		r, err := l.resolvePieces(pieces, c.file, profiles)
		switch {
		case err != nil:
			l.errs = append(l.errs, &SettingError{Value: c.imports, Reason: err.Error()})
		case r.missing != "" && !l.ignoreNotFound:
			l.errs = append(l.errs, &SettingError{Value: c.imports, Reason: r.missing})
		}
		all = append(all, r.candidates...)
	}
	// The last entry wins: read from the last, so that of a file named
	// twice the later naming counts, and children are highest first.
	var out []*contributor
	for i := len(all) - 1; i >= 0; i-- {
		cand := all[i]
		if c.embedded {
			cand.file.via = ""
		}
		id := cand.file.id(l.wd)
		if cand.tree {
			id = "configtree:" + id
		}
		if l.loaded[id] || (!cand.tree && !cand.file.exists()) {
			continue
		}
		l.loaded[id] = true
		if cand.tree {
			out = append(out, l.readTree(c, cand.file, phase)...)
			continue
		}
		out = append(out, l.documentNodes(cand.file, l.documents(cand.file, id), c, cand.profileSpecific, phase)...)
	}
	return out
}

// configTree returns the config tree at dir, which c's import list names
// in entry, and whether it is one; a mandatory one that is missing is
// reported.
func (l *loader) configTree(c *contributor, entry, dir string) (settingsFile, bool) {
	opened := inDir(l.opts.Dir, dir)
	if info, err := os.Stat(opened); err != nil || !info.IsDir() {
		if !strings.HasPrefix(entry, "optional:") && !l.ignoreNotFound {
			l.errs = append(l.errs, &SettingError{Value: c.imports, Reason: fmt.Sprintf("import %q does not exist or is not a directory; prefix it with optional: if it may be missing", entry)})
		}
		return settingsFile{}, false
	}
	shown := strings.TrimSuffix(dir, "/")
	return settingsFile{path: opened, shown: shown, via: entry}, true
}

// readTree reads the config tree f as a child of c.
func (l *loader) readTree(c *contributor, f settingsFile, phase int) []*contributor {
	src, err := readConfigTree(f.path, f.shown, "Config resource 'config tree ["+f.shown+"]' via location '"+f.via+"'")
	if err != nil {
		l.errs = append(l.errs, &SettingError{Value: c.imports, Reason: "reading the config tree: " + err.Error()})
		return nil
	}
	src.profileBound = phase == afterProfiles
	src.originParents = c.childParents()
	return []*contributor{{src: src, bound: true, depth: c.depth + 1, parents: src.originParents}}
}

// warn notes a warning for the start-up log, once.
func (l *loader) warn(w Warning) {
	id := w.Key + "\x00" + w.Origin + "\x00" + w.Message
	if !l.warned[id] {
		l.warned[id] = true
		l.warnings = append(l.warnings, w)
	}
}

// importKey is the key that named c's list of locations, as it was
// written (spring.config.import or app.config.import), or for the
// default search, app.config.location.
func importKey(c *contributor) string {
	if c.imports.Key == "" {
		return keyLocation
	}
	return c.imports.Key
}
