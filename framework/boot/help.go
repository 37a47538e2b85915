package boot

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/springport/greeter/framework/config"
)

// A Setting is one setting a service reads, as --help and the
// configuration reference list it.
type Setting struct {
	Key     string
	Default string // as the service would use it with no arguments and no environment; "" when none
	Help    string // what it does
	Own     bool   // the service's own, rather than the framework's
}

// Settings lists every setting svc reads, the service's own first, each
// with its default and meaning. The defaults are what the service would
// use with no arguments and no environment: the settings files it would
// read (packaged, ./, ./config/) included. A setting without a meaning has
// an empty Help; Undocumented lists those.
func Settings[S any](svc Service[S]) ([]Setting, error) {
	env, err := svc.load(nil, noEnvironment)
	if err != nil {
		return nil, err
	}
	own := config.NewBinder(env)
	if svc.Bind != nil {
		svc.Bind(own)
	}
	framework := config.NewBinder(env)
	bindSettings(framework, svc.loggerNames())
	svc.bindStarters(framework, env, nil, "memory")
	var list []Setting
	for _, b := range []*config.Binder{own, framework} {
		for _, key := range b.Keys() {
			s := Setting{Key: key, Own: b == own, Help: cmp.Or(svc.Help[key], b.Meaning(key))}
			if !s.Own {
				s.Help = b.Meaning(key)
			}
			s.Default, _ = b.Default(key)
			if v, ok, err := env.Lookup(key); ok && err == nil {
				s.Default = v.Resolved // set by a settings file
			}
			list = append(list, s)
		}
	}
	// The families whose members are named by the user (a header, a
	// health group), which bind only the members that are set.
	for _, f := range framework.Families() {
		list = append(list, Setting{Key: f.Key, Help: f.Meaning})
	}
	// The settings the loader reads itself, last: they are never bound.
	for _, l := range config.LoaderSettings() {
		key := l.Key
		if strings.HasSuffix(key, ".") {
			key += "<name>"
		}
		list = append(list, Setting{Key: key, Default: l.Default, Help: l.Help})
	}
	return list, nil
}

// Undocumented lists the settings svc reads that svc.Help does not
// describe, and the keys of svc.Help that nothing reads: what a test of
// the service should find empty, so that --help and the reference say
// what every setting does.
func Undocumented[S any](svc Service[S]) ([]string, error) {
	list, err := Settings(svc)
	if err != nil {
		return nil, err
	}
	var out []string
	read := map[string]bool{}
	for _, s := range list {
		read[s.Key] = true
		if s.Help == "" {
			out = append(out, s.Key+" has no meaning in Help")
		}
	}
	for key := range svc.Help {
		if !read[key] {
			out = append(out, key+" is in Help, but nothing reads it")
		}
	}
	return out, nil
}

// printHelp writes what --help answers: how to set a setting, then every
// setting with its default and meaning, the service's own first.
func printHelp[S any](w io.Writer, svc Service[S]) error {
	list, err := Settings(svc)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Usage: %s [--key=value ...]\n", svc.Name)
	fmt.Fprintln(w, "")
	fmt.Fprintln(w, "Each setting may also come from an environment variable (server.port: SERVER_PORT) or")
	fmt.Fprintln(w, "from application.properties in ./ or ./config/. --version prints the version.")
	fmt.Fprintln(w, "Spring's spring.X keys are read as app.X (spring.profiles.active: app.profiles.active).")
	fmt.Fprintln(w, "Durations: 30s, 5m, 1m30s, 250ms, 1d, PT30S, or a bare number of milliseconds. Sizes: 512KB,")
	fmt.Fprintln(w, "10MB (1KB = 1024 bytes), or bytes. Choices and units in any case: ALWAYS, 10mb.")
	for _, own := range []bool{true, false} {
		heading := "The framework's settings:"
		if own {
			heading = svc.Name + "'s own settings:"
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, s := range list {
			if s.Own != own {
				continue
			}
			if heading != "" {
				fmt.Fprintf(w, "\n%s\n", heading)
				fmt.Fprintln(tw, "SETTING\tDEFAULT\tMEANING")
				heading = ""
			}
			def := s.Default
			if def == "" {
				def = "(none)"
			}
			fmt.Fprintf(tw, "--%s\t%s\t%s\n", s.Key, def, s.Help)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// noEnvironment is an environment in which no variable is set: what
// --help reads settings from, so that only the packaged files count.
func noEnvironment(string) (string, bool) { return "", false }
