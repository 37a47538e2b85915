package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/springport/greeter/framework/profile"
)

// Load order, lowest precedence first (Spring Boot's):
//
//	application.properties embedded in the binary
//	application-<profile>.properties embedded, one per active profile
//	application.properties in ./ then ./config/ (or app.config.location)
//	application-<profile>.properties in the same locations
//	random values, ${random.int} and the like (see random.go)
//	environment variables, by relaxed names
//	--key=value command-line arguments
//
// Where several profiles are active the later profile's file wins, and a
// later location wins over an earlier one. Profiles are decided from the
// command line, the environment and the non-profile files before any
// profile file is read, so a profile file cannot activate profiles.
//
// Placeholders are resolved when a value is read, as in Spring: a key
// nobody reads may hold one that does not resolve. Load reads only the
// keys that find the files and decide the profiles; the application reads
// the rest through a Binder, which reports what does not resolve.

// Options say where Load finds settings.
type Options struct {
	// Embedded holds the packaged application.properties and
	// application-<profile>.properties; nil means none.
	Embedded fs.FS
	// Dir is the working directory that relative locations are read from;
	// empty means the process's.
	Dir string
	// Args are the command-line arguments; each must be --key=value.
	Args []string
	// Getenv reads environment variables.
	Getenv func(string) string
}

// Keys that control profiles; only the command line, the environment and
// non-profile files may set them.
const (
	keyActive   = "app.profiles.active"
	keyInclude  = "app.profiles.include"
	keyDefault  = "app.profiles.default"
	keyGroup    = "app.profiles.group."
	keyLocation = "app.config.location"
	keyAddLoc   = "app.config.additional-location"
)

var defaultLocations = []string{"optional:./", "optional:./config/"}

// Load reads every source and decides the active profiles. Its error lists
// every problem found, each naming the setting, its value, where it came
// from and why it is wrong.
func Load(opts Options) (*Environment, error) {
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	args, err := argsSource(opts.Args)
	if err != nil {
		return nil, err
	}
	envSrc := newSource("systemEnvironment")
	envSrc.getenv = opts.Getenv
	random := newRandomSource()
	env := &Environment{sources: []*source{args, envSrc, random}}

	locations, err := searchLocations(env)
	if err != nil {
		return nil, err
	}
	var errs []error
	load := func(fsys fs.FS, path, name, via string) *source {
		src, err := loadFile(fsys, path, name, via)
		if err != nil {
			errs = append(errs, err)
		}
		return src
	}

	// Non-profile files, lowest first.
	var embeddedBase, externalBase []*source
	if opts.Embedded != nil {
		embeddedBase = appendSource(embeddedBase, load(opts.Embedded, "application.properties", "embedded [application.properties]", ""))
	}
	for _, loc := range locations {
		if err := loc.check(opts.Dir); err != nil {
			errs = append(errs, err)
			continue
		}
		for _, f := range loc.files(opts.Dir, "") {
			externalBase = appendSource(externalBase, load(nil, f.path, "file ["+f.shown+"]", loc.raw))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	env.sources = append(env.sources, reversed(externalBase)...)
	env.sources = append(env.sources, reversed(embeddedBase)...)

	if err := env.decideProfiles(); err != nil {
		return nil, err
	}

	// Profile files, lowest first.
	var embeddedProfile, externalProfile []*source
	for _, p := range env.active {
		if opts.Embedded != nil {
			name := "application-" + p + ".properties"
			embeddedProfile = appendSource(embeddedProfile, load(opts.Embedded, name, "embedded ["+name+"]", ""))
		}
	}
	// Profile-major, so that the later profile wins across locations too:
	// ./config/application-qa.properties does not beat
	// ./application-dev.properties when dev comes after qa.
	for _, p := range env.active {
		for _, loc := range locations {
			for _, f := range loc.files(opts.Dir, p) {
				externalProfile = appendSource(externalProfile, load(nil, f.path, "file ["+f.shown+"]", loc.raw))
			}
		}
	}
	for _, src := range append(slices.Clone(embeddedProfile), externalProfile...) {
		for _, k := range src.keys {
			if isProfileKey(k) {
				e := src.entries[k]
				errs = append(errs, &SettingError{
					Value:  Value{Key: k, Raw: e.Value, Source: src.name, Origin: e.Origin},
					Reason: "profiles can only be set on the command line, in the environment or in a file that is not profile-specific",
				})
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// Highest first: args, env, random, external profile, external base,
	// embedded profile, embedded base.
	env.sources = slices.Concat([]*source{args, envSrc, random}, reversed(externalProfile), reversed(externalBase),
		reversed(embeddedProfile), reversed(embeddedBase))
	return env, nil
}

func isProfileKey(k string) bool {
	return k == keyActive || k == keyInclude || k == keyDefault || strings.HasPrefix(k, keyGroup)
}

func appendSource(list []*source, s *source) []*source {
	if s == nil {
		return list
	}
	return append(list, s)
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

// location is one place to look for settings files: a directory (ending in
// a slash, or found to be one) or a file.
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
	path := l.path
	if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	if _, err := os.Stat(path); err != nil {
		return &SettingError{
			Value:  Value{Key: l.key, Raw: l.raw, Origin: l.origin, secrets: l.secrets},
			Reason: fmt.Sprintf("location %q does not exist; prefix it with optional: if it may be missing", l.path),
		}
	}
	return nil
}

type locatedFile struct {
	path  string // to open
	shown string // as source names show it
}

// files returns the files of the location for profile p ("" for the
// non-profile file).
func (l location) files(dir, p string) []locatedFile {
	path := l.path
	if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	suffix := ""
	if p != "" {
		suffix = "-" + p
	}
	if info, err := os.Stat(path); strings.HasSuffix(l.path, "/") || (err == nil && info.IsDir()) {
		name := "application" + suffix + ".properties"
		return []locatedFile{{path: filepath.Join(path, name), shown: filepath.Join(l.path, name)}}
	}
	if p == "" {
		return []locatedFile{{path: path, shown: l.path}}
	}
	ext := filepath.Ext(path)
	return []locatedFile{{path: strings.TrimSuffix(path, ext) + suffix + ext, shown: strings.TrimSuffix(l.path, ext) + suffix + ext}}
}

// searchLocations reads app.config.location (which replaces the default
// ./ and ./config/) and app.config.additional-location (which adds to them)
// from the command line and the environment.
func searchLocations(env *Environment) ([]location, error) {
	env.loadKeys = append(env.loadKeys, keyLocation, keyAddLoc)
	var locs []location
	add := func(list []string, v Value) {
		for _, r := range list {
			path, optional := strings.CutPrefix(r, "optional:")
			path, _ = strings.CutPrefix(path, "file:")
			locs = append(locs, location{raw: r, path: path, optional: optional, key: v.Key, secrets: v.secrets})
			if v.Key != "" {
				locs[len(locs)-1].origin = v.Origin
			}
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

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// loadFile reads one settings file; a missing one is nil.
func loadFile(fsys fs.FS, path, name, via string) (*source, error) {
	var data []byte
	var err error
	if fsys != nil {
		data, err = fs.ReadFile(fsys, path)
	} else {
		data, err = os.ReadFile(path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	props, err := ParseProperties(string(data))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	srcName := "Config resource '" + name + "'"
	if via != "" {
		srcName += " via location '" + via + "'"
	}
	src := newSource(srcName)
	for _, p := range props {
		src.set(p.Key, p.Value, fmt.Sprintf("%s line %d", name, p.Line))
	}
	return src, nil
}

// decideProfiles sets the active profiles from the sources loaded so far:
// app.profiles.active from the highest source that sets it, after the
// profiles of app.profiles.include, each expanded by its
// app.profiles.group.<name>; app.profiles.default when that leaves none.
func (e *Environment) decideProfiles() error {
	list := func(key string) ([]string, error) {
		e.loadKeys = append(e.loadKeys, key)
		v, ok, err := e.Lookup(key)
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
	include, err := list(keyInclude)
	if err != nil {
		return err
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
