package config

import (
	"context"
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
//	each app.config.additional-location, then its profile files
//	files imported on the command line or in the environment (app.config.import)
//	random values, ${random.int} and the like (see random.go)
//	environment variables, by relaxed names
//	APP_APPLICATION_JSON (or --app.application.json), a JSON object
//	--key=value command-line arguments
//
// At one location .properties wins over .yml, which wins over .yaml. A
// file's later documents win over its earlier ones, and what a document
// imports wins over the document (see imports.go and contributors.go).
// Where several profiles are active the later profile's file wins, and a
// later location wins over an earlier one.
//
// Profiles are decided between two phases, as Spring does. The first
// reads the files without the documents that apply only under some
// profiles (app.config.activate.on-profile) and without profile files, and
// the profiles are decided from what it read. The second adds the profile
// files and the documents that apply under the profiles decided. So a
// profile file or a conditional document cannot activate profiles, and one
// that tries is refused.
//
// Placeholders are resolved when a value is read, as in Spring: a key
// nobody reads may hold one that does not resolve. Load reads only the
// keys that find the files and decide the profiles, strictly (a location
// or a profile named ${...} is refused); the application reads the rest
// through a Binder, which keeps what does not resolve as written, as
// Spring's binder does, and warns of it (see Environment.Lookup).

// Options say where Load finds settings.
type Options struct {
	// Embedded holds the packaged application.* and application-<profile>.*
	// settings files, at its root; nil means none. Settings files in a
	// folder of it, with none at its root, are refused
	// (EmbeddedSettingsError).
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
	// Context, when cancelled, ends the loading between files and in any
	// read that waits, and Load returns its error: a service told to stop
	// while it starts does not wait for its settings. Nil never ends.
	Context context.Context
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
	// keyValidate=false lets profile names hold any character, as
	// Spring's spring.profiles.validate does.
	keyValidate = "app.profiles.validate"
)

// defaultLocations is Spring's default search of files beside the
// process, one group: its profile files are read profile by profile
// across the three (see locations.go).
const defaultLocations = "optional:file:./;optional:file:./config/;optional:file:./config/*/"

// Load reads every source and decides the active profiles. Its error lists
// every problem found, each naming the setting, its value, where it came
// from and why it is wrong.
func Load(opts Options) (*Environment, error) {
	if opts.LookupEnv == nil {
		opts.LookupEnv = func(string) (string, bool) { return "", false }
	}
	if opts.Context == nil {
		opts.Context = context.Background()
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
	initial := &Environment{sources: []*source{args, envSrc, random}, loadKeys: []string{keyApplicationJSON, keyImport}, dir: opts.Dir}
	jsonSrc, err := applicationJSON(initial)
	if err != nil {
		return nil, err
	}
	if jsonSrc != nil {
		initial.sources = []*source{args, jsonSrc, envSrc, random}
	}
	l := &loader{opts: opts, initial: initial, parsed: map[string][]document{}, loaded: map[string]bool{}, warned: map[string]bool{}}
	l.wd, _ = os.Getwd()
	if err := l.readLoaderSettings(); err != nil {
		return nil, err
	}
	if opts.Embedded != nil {
		if err := checkEmbeddedRoot(opts.Embedded, l.names); err != nil {
			return nil, err
		}
	}
	root, err := l.tree()
	if err != nil {
		return nil, err
	}
	l.process(root, beforeProfiles, nil)
	if err := opts.Context.Err(); err != nil {
		return nil, err
	}
	if len(l.errs) > 0 {
		return nil, errors.Join(l.errs...)
	}
	env := &Environment{sources: slices.Concat(initial.sources, root.sources(nil)), loadKeys: initial.loadKeys, dir: opts.Dir}
	if err := env.decideProfiles(); err != nil {
		return nil, err
	}

	l.process(root, afterProfiles, env.active)
	if err := opts.Context.Err(); err != nil {
		return nil, err
	}
	files := root.sources(env.active)
	for _, src := range files {
		l.errs = append(l.errs, refuseProfileKeys(src)...)
	}
	if len(l.errs) > 0 {
		return nil, errors.Join(l.errs...)
	}
	env.sources = slices.Concat(initial.sources, files)
	env.warnings = l.warnings
	return env, nil
}

// loader reads the settings files of one Load.
type loader struct {
	opts    Options
	initial *Environment
	// names are the names of the settings files in a directory
	// (app.config.name), later names winning.
	names []string
	// ignoreNotFound is app.config.on-not-found=ignore: a location or
	// import that does not exist is skipped even without optional:.
	ignoreNotFound bool
	// loaded holds the files read: as in Spring, a file is read once
	// however many times it is named, which also ends import cycles.
	loaded map[string]bool
	// parsed holds every file parsed, so that each is parsed and its
	// errors reported once.
	parsed map[string][]document
	errs   []error
	// wd is the working directory when Load began, against which the ids
	// of files on disk are made absolute.
	wd string
	// warnings are for the start-up log; warned dedupes them.
	warnings []Warning
	warned   map[string]bool
}

// readLoaderSettings reads app.config.name and app.config.on-not-found,
// which only the command line and the environment set, as in Spring.
func (l *loader) readLoaderSettings() error {
	l.initial.loadKeys = append(l.initial.loadKeys, keyConfigName, keyOnNotFound)
	l.names = []string{"application"}
	if v, ok, err := l.initial.LookupStrict(keyConfigName); err != nil {
		return err
	} else if ok {
		l.names = splitList(v.Resolved)
		for _, n := range l.names {
			if strings.Contains(n, "*") {
				return &SettingError{Value: v, Reason: fmt.Sprintf("the name %q may not contain '*': it names the files a directory holds (application for application.properties); use a pattern location (config/*/) for several directories", n)}
			}
		}
		if len(l.names) == 0 {
			return &SettingError{Value: v, Reason: "no name given: it names the files a location holds (application for application.properties)"}
		}
	}
	if v, ok, err := l.initial.LookupStrict(keyOnNotFound); err != nil {
		return err
	} else if ok {
		switch strings.ToLower(strings.TrimSpace(v.Resolved)) {
		case "fail":
		case "ignore":
			l.ignoreNotFound = true
		default:
			return &SettingError{Value: v, Reason: "must be fail or ignore"}
		}
	}
	return nil
}

// tree returns the root of the settings tree (see contributors.go): its
// children are, highest first, the command line's import list, each
// additional location, each location (later ones first), and the packaged
// files.
func (l *loader) tree() (*contributor, error) {
	root := &contributor{}
	initial := l.initial
	initial.loadKeys = append(initial.loadKeys, keyLocation, keyAddLoc)
	node := func(v Value, list string, groups bool) *contributor {
		v.Resolved = list
		return &contributor{imports: v, hasImports: true, bound: true, groups: groups, depth: -1}
	}
	if v, ok, err := initial.LookupStrict(keyImport); err != nil {
		return nil, err
	} else if ok {
		root.children[beforeProfiles] = append(root.children[beforeProfiles], node(v, v.Resolved, false))
	}
	for _, key := range []string{keyAddLoc, keyLocation} {
		v, ok, err := initial.LookupStrict(key)
		switch {
		case err != nil:
			return nil, err
		case !ok && key == keyLocation:
			v, ok = Value{}, true
			v.Resolved = defaultLocations
		}
		if !ok {
			continue
		}
		for _, entry := range slices.Backward(splitList(v.Resolved)) {
			root.children[beforeProfiles] = append(root.children[beforeProfiles], node(v, entry, true))
		}
	}
	if l.opts.Embedded != nil {
		embedded := node(Value{}, "optional:./", false)
		embedded.file, embedded.embedded = settingsFile{fsys: l.opts.Embedded, path: "."}, true
		root.children[beforeProfiles] = append(root.children[beforeProfiles], embedded)
	}
	return root, nil
}

// documents returns the documents of f, nil when it is missing or broken;
// a broken file is reported the first time it is read.
func (l *loader) documents(f settingsFile, id string) []document {
	if docs, ok := l.parsed[id]; ok {
		return docs
	}
	var docs []document
	data, err := f.read(l.opts.Context)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		l.errs = append(l.errs, fmt.Errorf("reading %s: %w", f.name(), err))
	default:
		var se *SettingError
		var notUTF8 invalidUTF8Error
		var text string
		if text, err = decodeSettingsText(data, f.encoding); err == nil && !isLatin1(f.encoding) {
			err = checkUTF8(text)
		}
		if err == nil {
			docs, err = parseDocuments(f.format(), text, f.origin)
		}
		switch {
		case errors.As(err, &se):
			se.Value.Source = f.sourceName()
			l.errs = append(l.errs, se)
		case errors.As(err, &notUTF8):
			l.errs = append(l.errs, fmt.Errorf("reading %s: %w%s", f.name(), err, encodingHint(f)))
		case err != nil:
			l.errs = append(l.errs, fmt.Errorf("reading %s: %w", f.name(), err))
		}
	}
	l.parsed[id] = docs
	return docs
}

// argsSource reads the command line. A key given more than once takes
// every value, joined by commas in order, as Spring's command-line
// source joins an option's values: --app.profiles.active=a
// --app.profiles.active=b activates a and b, and --k=1 --k=2 is k=1,2.
func argsSource(args []string) (*source, error) {
	src := newSource("commandLineArgs")
	for _, arg := range args {
		kv, ok := strings.CutPrefix(arg, "--")
		key, value, hasValue := strings.Cut(kv, "=")
		if !ok || !hasValue || strings.TrimSpace(key) == "" {
			return nil, fmt.Errorf("argument %q is not of the form --key=value", arg)
		}
		origin := commandLineOrigin + arg
		if prev, ok := src.entries[key]; ok {
			value = prev.Value + "," + value
			origin = commandLineOrigin + "--" + key + "=" + value + " (repeated)"
		}
		src.set(key, value, origin)
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
	e.loadKeys = append(e.loadKeys, keyInclude, keyValidate)
	validate := true
	if v, ok, err := e.LookupStrict(keyValidate); err != nil {
		return err
	} else if ok {
		if validate, err = Bool(v.Resolved); err != nil {
			return &SettingError{Value: v, Reason: err.Error()}
		}
	}
	listIn := func(env *Environment, key string) ([]string, error) {
		v, ok, err := env.LookupStrict(key)
		if err != nil || !ok {
			return nil, err
		}
		if len(v.secrets) > 0 {
			// Profile names are shown by design: in the start-up log and
			// in /actuator/env. One taken from a secret would show it.
			return nil, &SettingError{Value: v, Reason: "a profile may not be named by a secret (a key ending in password, secret, key or token): profile names are logged and shown"}
		}
		if !validate {
			return profileNames(v.Resolved), nil
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
	// expandAll is profiles with each group's members after the group,
	// recursively; the default profiles are expanded too, as Spring's
	// Profiles expands them.
	expandAll := func(profiles []string) ([]string, error) {
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
		for _, p := range profiles {
			if err := expand(p, 0); err != nil {
				return nil, err
			}
		}
		return expanded, nil
	}
	expanded, err := expandAll(append(include, active...))
	if err != nil {
		return err
	}
	defaults := []string{"default"}
	if d, err := list(keyDefault); err != nil {
		return err
	} else if d != nil {
		defaults = d
	}
	if e.defaultProfile, err = expandAll(defaults); err != nil {
		return err
	}
	if len(expanded) == 0 {
		e.active, e.defaultActive = slices.Clone(e.defaultProfile), true
	} else {
		e.active = expanded
	}
	return nil
}

// profileNames splits a list of profiles as profile.ParseList does,
// without checking the names: app.profiles.validate=false.
func profileNames(s string) []string {
	var names []string
	for _, n := range splitList(s) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}
