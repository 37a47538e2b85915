package config

import (
	"errors"
	"fmt"
	"slices"
)

// The settings files form a tree, as Spring's config data contributors do.
// Each location (and the command line's import list) is a node whose
// children are the documents of the files it resolves to; a document that
// imports more has those files' documents as its children. A node's
// children come in two lists: those read before the profiles were decided,
// and those read after, with the profiles (profile files, and what
// documents that apply only under a profile import). Walking the tree gives
// the precedence order, highest first: a node's after-children, its
// before-children, then the node itself; so what a document imports beats
// the document, and a later entry of a list beats an earlier one (children
// are kept highest first).
//
// The tree is processed in two phases. Before the profiles are decided,
// every document that applies without them has its imports read; the
// profiles are then decided from the documents that apply; after, every
// node that applies reads its imports again with the profiles, which adds
// the profile files of its entries (a file already read is not read
// again). One rule moves profile files up, as Spring's PROFILE_SPECIFIC
// option does: when a node gets its after-children, the profile files that
// its before-children imported move to the front of them, so that
// imported-dev.properties, the profile file of a file that
// application.properties imports, beats application-dev.properties.
//
// Placeholders in an import list resolve against everything in the tree
// when it is read, highest first: the command line and the environment, and
// every document read so far, later documents of the same file included. A
// document that does not apply may not be the one to answer, as Spring
// refuses it (InactiveConfigDataAccessException): while it does not apply,
// the import would take a value that the settings do not hold.

// Import phases: the index of a node's children lists.
const (
	beforeProfiles = 0
	afterProfiles  = 1
)

// contributor is one node of the tree.
type contributor struct {
	// src is the document's settings; nil for a location, which only
	// imports.
	src *source
	doc document
	// file is the file the document is in, against which its imports
	// resolve; the zero settingsFile for a location.
	file settingsFile
	// imports is the import list once bound (its placeholders resolved);
	// hasImports says whether there is one, bound whether it was bound.
	imports    Value
	hasImports bool
	bound      bool
	// groups splits each entry of a location list into its ";" pieces;
	// nil for an import list, whose entries are single locations.
	groups bool
	// embedded marks the packaged files' location, whose sources name no
	// location, as before app.config.location existed.
	embedded bool

	children  [2][]*contributor // highest first
	processed [2]bool
	// profileSpecific marks a profile file, moved up once (see
	// moveProfileSpecific).
	profileSpecific bool
	depth           int
	// parents are the origins of the imports that led here, nearest first.
	parents []string
}

// walk calls yield for every node of the tree below c and c itself, in
// precedence order, until yield returns false.
func (c *contributor) walk(yield func(*contributor) bool) bool {
	for _, phase := range []int{afterProfiles, beforeProfiles} {
		for _, child := range c.children[phase] {
			if !child.walk(yield) {
				return false
			}
		}
	}
	return yield(c)
}

// applies reports whether c is in effect under the profiles (nil before
// they are decided).
func (c *contributor) applies(profiles []string) bool {
	return c.src == nil || c.doc.applies(profiles)
}

// process reads the imports of every node that applies, for the phase, as
// long as some node has imports left to read: reading imports adds nodes
// that may import more. Binding a node's import list and reading it are
// steps of their own, in precedence order, as in Spring, so that a
// placeholder sees what higher nodes read.
func (l *loader) process(root *contributor, phase int, profiles []string) {
	for l.opts.Context.Err() == nil { // a stop while starting ends the reading
		var next *contributor
		root.walk(func(c *contributor) bool {
			if (c.src != nil && !c.bound) || (c.hasImports && !c.processed[phase] && c.applies(profiles)) {
				next = c
				return false
			}
			return true
		})
		switch {
		case next == nil:
			return
		case !next.bound:
			l.bind(root, next, profiles)
			continue
		}
		next.processed[phase] = true
		if next.depth+1 > maxImportDepth {
			l.errs = append(l.errs, &SettingError{Value: next.imports, Reason: fmt.Sprintf("imports nest more than %d deep", maxImportDepth)})
			continue
		}
		var withProfiles []string
		if phase == afterProfiles {
			withProfiles = profiles
		}
		next.children[phase] = l.importList(next, withProfiles, phase)
		if phase == afterProfiles {
			next.moveProfileSpecific()
		}
	}
}

// moveProfileSpecific moves the profile files that c's before-children
// imported to the front of c's after-children, one level up: Spring's rule
// that a profile file of an import beats the importing location's own
// profile files.
func (c *contributor) moveProfileSpecific() {
	var moved []*contributor
	for _, child := range c.children[beforeProfiles] {
		for phase := range child.children {
			kept := child.children[phase][:0:0]
			for _, grandchild := range child.children[phase] {
				if grandchild.profileSpecific {
					grandchild.profileSpecific = false
					moved = append(moved, grandchild)
				} else {
					kept = append(kept, grandchild)
				}
			}
			child.children[phase] = kept
		}
	}
	c.children[afterProfiles] = append(moved, c.children[afterProfiles]...)
}

// bind resolves the import list of the document c against the tree.
func (l *loader) bind(root, c *contributor, profiles []string) {
	c.bound = true
	ent, ok := c.src.lookup(keyImport)
	if !ok {
		return
	}
	c.hasImports = true
	v := Value{Key: ent.Key, Raw: ent.Value, Source: c.src.name, Origin: ent.Origin}
	resolved, err := resolveWith(&placeholderResolver{lookup: func(name string) (string, bool, error) {
		raw, ok, err := l.treeValue(root, c, asApp(name), profiles)
		if ok && Sensitive(name) {
			v.secrets = append(v.secrets, raw)
		}
		return raw, ok, err
	}, system: true, dir: l.initial.dir}, ent.Value)
	var inactive inactiveSourceError
	switch {
	case errors.As(err, &inactive):
		l.errs = append(l.errs, &SettingError{Value: v, Reason: fmt.Sprintf("placeholder ${%s}: %v", inactive.key, inactive)})
		c.hasImports = false
	case err != nil:
		// As in Spring, a placeholder that does not resolve stays as
		// written, and the import then names what it could not find.
		v.Resolved = ent.Value
	default:
		v.Resolved = resolved
	}
	c.imports = v
}

// inactiveSourceError is a placeholder whose key a document holds that
// does not apply.
type inactiveSourceError struct {
	key, source, origin string
	doc                 document
}

func (e inactiveSourceError) Error() string {
	return fmt.Sprintf("%s is also set in %s (%s), a document that does not apply when the import is read (%s=%s); "+
		"as in Spring, an import may not read a key that such a document sets: "+
		"set it in a document that always applies, or use another name",
		e.key, e.source, e.origin, keyOnProfile, e.doc.onProfile)
}

// treeValue looks name up for c's import list: in the sources before the
// files, then in every document of the tree, highest first. The first
// value found is the answer, but any document that holds name and does
// not apply under the profiles is an error, as in Spring.
func (l *loader) treeValue(root, c *contributor, name string, profiles []string) (string, bool, error) {
	var value string
	found := false
	names := lookupNames(name)
	for _, s := range l.initial.sources {
		e, ok, err := s.find(name, names)
		if err != nil {
			return "", false, err
		}
		if ok {
			value, found = e.Value, true
			break
		}
	}
	var err error
	root.walk(func(n *contributor) bool {
		if n.src == nil {
			return true
		}
		e, ok := n.src.lookupNames(names)
		if !ok {
			return true
		}
		if n != c && !n.applies(profiles) {
			err = inactiveSourceError{key: name, source: n.src.name, origin: e.Origin, doc: n.doc}
			return false
		}
		if !found {
			value, found = e.Value, true
		}
		return true
	})
	return value, found, err
}

// sources returns the sources of the documents that apply under the
// profiles, highest first.
func (root *contributor) sources(profiles []string) []*source {
	var out []*source
	root.walk(func(c *contributor) bool {
		if c.src != nil && c.applies(profiles) {
			out = append(out, c.src)
		}
		return true
	})
	return out
}

// childParents returns the origin parents of what c's import list reads:
// the list's origin, then c's own parents.
func (c *contributor) childParents() []string {
	if c.imports.Origin == "" {
		return c.parents
	}
	return slices.Concat([]string{c.imports.Origin}, c.parents)
}

// documentNodes returns a node for each of docs, the documents of f,
// highest first (later documents win), as children of parent read in the
// phase.
func (l *loader) documentNodes(f settingsFile, docs []document, parent *contributor, profileSpecific bool, phase int) []*contributor {
	parents := parent.childParents()
	var out []*contributor
	for i, d := range slices.Backward(docs) {
		src := newSource(documentSourceName(f.sourceName(), i, len(docs)))
		for _, p := range d.props {
			src.set(p.Key, p.Value, f.origin(p))
		}
		// Read because of the profiles: it may not decide them.
		src.profileBound = phase == afterProfiles || d.conditional
		src.originParents = parents
		// A document without an import list has nothing to bind.
		_, hasImports := src.lookup(keyImport)
		out = append(out, &contributor{src: src, doc: d, file: f, profileSpecific: profileSpecific,
			bound: !hasImports, depth: parent.depth + 1, parents: parents})
	}
	return out
}
