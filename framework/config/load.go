package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/springport/greeter/framework/profile"
)

// Load order, lowest precedence first (Spring Boot's):
//
//	settings files embedded in the binary: application.{yaml,yml,properties}
//	their profile files, application-<profile>.*, one per active profile
//	settings files in ./, ./config/ and each ./config/*/ (or app.config.location)
//	their profile files in the same locations
//	files imported on the command line or in the environment (app.config.import)
//	random values, ${random.int} and the like (see random.go)
//	environment variables, by relaxed names
//	APP_APPLICATION_JSON (or --app.application.json), a JSON object
//	--key=value command-line arguments
//
// At one location .properties wins over .yml, which wins over .yaml. A
// file's later documents win over its earlier ones, and what a document
// imports wins over the document (see imports.go). Where several profiles
// are active the later profile's file wins, and a later location wins over
// an earlier one.
//
// Profiles are decided in two passes, as Spring does. The first pass reads
// the files without the documents that apply only under some profiles
// (app.config.activate.on-profile) and without profile files, and decides
// the profiles from what it read. The second reads everything again under
// those profiles. So a profile file or a conditional document cannot
// activate profiles, and one that tries is refused.
//
// Placeholders are resolved when a value is read, as in Spring: a key
// nobody reads may hold one that does not resolve. Load reads only the
// keys that find the files and decide the profiles; the application reads
// the rest through a Binder, which reports what does not resolve.

// Options say where Load finds settings.
type Options struct {
	// Embedded holds the packaged application.* and application-<profile>.*
	// settings files; nil means none.
	Embedded fs.FS
	// Dir is the working directory that relative locations are read from;
	// empty means the process's.
	Dir string
	// Args are the command-line arguments; each must be --key=value.
	Args []string
	// LookupEnv reads an environment variable and says whether it is set,
	// as os.LookupEnv does; a variable set to "" is set. Nil means no
	// variable is set.
	LookupEnv func(string) (string, bool)
}

// Keys that control profiles; only the command line, the environment and
// documents that are not profile-specific may set them.
const (
	keyActive   = "app.profiles.active"
	keyInclude  = "app.profiles.include"
	keyDefault  = "app.profiles.default"
	keyGroup    = "app.profiles.group."
	keyLocation = "app.config.location"
	keyAddLoc   = "app.config.additional-location"
)

var defaultLocations = []string{"optional:./", "optional:./config/", "optional:./config/*/"}

// Load reads every source and decides the active profiles. Its error lists
// every problem found, each naming the setting, its value, where it came
// from and why it is wrong.
func Load(opts Options) (*Environment, error) {
	if opts.LookupEnv == nil {
		opts.LookupEnv = func(string) (string, bool) { return "", false }
	}
	args, err := argsSource(opts.Args)
	if err != nil {
		return nil, err
	}
	envSrc := newSource("systemEnvironment")
	envSrc.lookupEnv = opts.LookupEnv
	random := newRandomSource()
	// initial holds what is known before any file is read: it names the
	// files, and placeholders in import lists resolve against it.
	initial := &Environment{sources: []*source{args, envSrc, random}, loadKeys: []string{keyApplicationJSON, keyImport}}
	jsonSrc, err := applicationJSON(initial)
	if err != nil {
		return nil, err
	}
	if jsonSrc != nil {
		initial.sources = []*source{args, jsonSrc, envSrc, random}
	}
	locations, err := searchLocations(initial, opts.Dir)
	if err != nil {
		return nil, err
	}

	l := &loader{opts: opts, initial: initial, parsed: map[string][]document{}}
	l.wd, _ = os.Getwd()
	env := &Environment{sources: slices.Concat(initial.sources, l.readFiles(locations)), loadKeys: initial.loadKeys}
	if len(l.errs) > 0 {
		return nil, errors.Join(l.errs...)
	}
	if err := env.decideProfiles(); err != nil {
		return nil, err
	}

	l.profiles = env.active
	files := l.readFiles(locations)
	for _, src := range files {
		l.errs = append(l.errs, refuseProfileKeys(src)...)
	}
	if len(l.errs) > 0 {
		return nil, errors.Join(l.errs...)
	}
	env.sources = slices.Concat(initial.sources, files)
	return env, nil
}

// loader reads the settings files of one Load.
type loader struct {
	opts    Options
	initial *Environment
	// profiles are the active profiles; nil in the first pass, before
	// they are decided, when conditional documents and profile files wait.
	profiles []string
	// loaded holds the files read in this pass: as in Spring, a file is
	// read once however many times it is named, which also ends import
	// cycles.
	loaded map[string]bool
	// parsed holds every file read in either pass, so that each is parsed
	// and its errors reported once.
	parsed map[string][]document
	errs   []error
	// wd is the working directory when Load began, against which the ids
	// of files on disk are made absolute.
	wd string
}

// readFiles reads every settings file of one pass and returns their
// sources, highest precedence first.
func (l *loader) readFiles(locations []location) []*source {
	l.loaded = map[string]bool{}
	var embeddedBase, embeddedProfile, externalBase, externalProfile []*source
	if l.opts.Embedded != nil {
		root := settingsFile{fsys: l.opts.Embedded, path: "."}
		for _, f := range root.directoryFiles("") {
			embeddedBase = append(embeddedBase, l.fileSources(f, false, false, 0)...)
		}
		for _, p := range l.profiles {
			for _, f := range root.directoryFiles(p) {
				embeddedProfile = append(embeddedProfile, l.fileSources(f, true, true, 0)...)
			}
		}
	}
	for _, loc := range locations {
		if err := loc.check(l.opts.Dir); err != nil {
			l.errs = append(l.errs, err)
			continue
		}
		for _, f := range loc.files(l.opts.Dir, "") {
			externalBase = append(externalBase, l.fileSources(f, false, false, 0)...)
		}
	}
	// Profile-major, so that the later profile wins across locations too:
	// ./config/application-qa.properties does not beat
	// ./application-dev.properties when dev comes after qa.
	for _, p := range l.profiles {
		for _, loc := range locations {
			for _, f := range loc.files(l.opts.Dir, p) {
				externalProfile = append(externalProfile, l.fileSources(f, true, true, 0)...)
			}
		}
	}
	var imported []*source
	if v, ok, err := l.initial.Lookup(keyImport); err != nil {
		l.errs = append(l.errs, err)
	} else if ok {
		imported = l.importList(v, settingsFile{}, false, 0)
	}
	return slices.Concat(reversed(imported), reversed(externalProfile), reversed(externalBase),
		reversed(embeddedProfile), reversed(embeddedBase))
}

// fileSources returns the sources of the file f, lowest first: each of its
// documents that applies under the profiles, followed by what it imports.
// bound marks a file read because of the profiles, profileFile a
// profile-specific file; depth is how deeply f is imported.
func (l *loader) fileSources(f settingsFile, bound, profileFile bool, depth int) []*source {
	id := f.id(l.wd)
	if l.loaded[id] {
		return nil
	}
	l.loaded[id] = true
	docs := l.documents(f, id)
	var out []*source
	for i, d := range docs {
		if !d.applies(l.profiles) {
			continue
		}
		src := newSource(documentSourceName(f.sourceName(), i, len(docs)))
		for _, p := range d.props {
			src.set(p.Key, p.Value, f.origin(p))
		}
		src.profileBound = bound || d.conditional
		src.profileFile = profileFile
		out = append(out, src)
		if ent, ok := src.lookup(keyImport); ok {
			v := Value{Key: ent.Key, Raw: ent.Value, Resolved: l.initial.Resolve(ent.Value), Source: src.name, Origin: ent.Origin}
			out = append(out, l.importList(v, f, src.profileBound, depth+1)...)
		}
	}
	return out
}

// documents returns the documents of f, nil when it is missing or broken;
// a broken file is reported the first time it is read.
func (l *loader) documents(f settingsFile, id string) []document {
	if docs, ok := l.parsed[id]; ok {
		return docs
	}
	var docs []document
	data, err := f.read()
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		l.errs = append(l.errs, fmt.Errorf("reading %s: %w", f.name(), err))
	default:
		var se *SettingError
		docs, err = parseDocuments(f.path, string(data), f.origin)
		if errors.As(err, &se) {
			se.Value.Source = f.sourceName()
			l.errs = append(l.errs, se)
		} else if err != nil {
			l.errs = append(l.errs, fmt.Errorf("reading %s: %w", f.name(), err))
		}
	}
	l.parsed[id] = docs
	return docs
}

func reversed(s []*source) []*source {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

func argsSource(args []string) (*source, error) {
	src := newSource("commandLineArgs")
	for _, arg := range args {
		kv, ok := strings.CutPrefix(arg, "--")
		key, value, hasValue := strings.Cut(kv, "=")
		if !ok || !hasValue || strings.TrimSpace(key) == "" {
			return nil, fmt.Errorf("argument %q is not of the form --key=value", arg)
		}
		src.set(key, value, commandLineOrigin+arg)
	}
	return src, nil
}

// decideProfiles sets the active profiles from the sources loaded so far:
// app.profiles.active from the highest source that sets it, after the
// profiles of app.profiles.include, each expanded by its
// app.profiles.group.<name>; app.profiles.default when that leaves none.
//
// Unlike the other keys, app.profiles.include is merged across sources, as
// Spring Boot 3 merges it: every source that sets it adds its profiles,
// the highest source's first, each profile once.
func (e *Environment) decideProfiles() error {
	e.loadKeys = append(e.loadKeys, keyInclude)
	listIn := func(env *Environment, key string) ([]string, error) {
		v, ok, err := env.Lookup(key)
		if err != nil || !ok {
			return nil, err
		}
		if len(v.secrets) > 0 {
			// Profile names are shown by design: in the start-up log and
			// in /actuator/env. One taken from a secret would show it.
			return nil, &SettingError{Value: v, Reason: "a profile may not be named by a secret (a key ending in password, secret, key or token): profile names are logged and shown"}
		}
		names, err := profile.ParseList(v.Resolved)
		if err != nil {
			return nil, &SettingError{Value: v, Reason: err.Error()}
		}
		return names, nil
	}
	list := func(key string) ([]string, error) {
		e.loadKeys = append(e.loadKeys, key)
		return listIn(e, key)
	}
	var include []string
	for _, src := range e.sources {
		ent, ok := src.lookup(keyInclude)
		if !ok {
			continue
		}
		// The source's own value, resolved against the whole environment.
		own := newSource(src.name)
		own.set(keyInclude, ent.Value, ent.Origin)
		names, err := listIn(&Environment{sources: slices.Concat([]*source{own}, e.sources)}, keyInclude)
		if err != nil {
			return err
		}
		for _, n := range names {
			if !slices.Contains(include, n) {
				include = append(include, n)
			}
		}
	}
	active, err := list(keyActive)
	if err != nil {
		return err
	}
	var expanded []string
	var expand func(p string, depth int) error
	expand = func(p string, depth int) error {
		if slices.Contains(expanded, p) {
			return nil
		}
		expanded = append(expanded, p)
		if depth > 32 {
			return fmt.Errorf("profile group %s nests deeper than 32 levels", p)
		}
		members, err := list(keyGroup + p)
		if err != nil {
			return err
		}
		for _, m := range members {
			if err := expand(m, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for _, p := range append(include, active...) {
		if err := expand(p, 0); err != nil {
			return err
		}
	}
	e.defaultProfile = []string{"default"}
	if d, err := list(keyDefault); err != nil {
		return err
	} else if d != nil {
		e.defaultProfile = d
	}
	if len(expanded) == 0 {
		e.active, e.defaultActive = slices.Clone(e.defaultProfile), true
	} else {
		e.active = expanded
	}
	return nil
}
