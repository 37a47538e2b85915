package boot

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/tracing"
	"github.com/springport/greeter/framework/ssl"
)

// frameworkHelp says what the framework's settings do whose bindings do
// not say it themselves (config.Bind's meaning, which most now carry):
// keys that are constants or made from a prefix. The keys and defaults
// come from the binding itself (bindSettings), and a test fails when a
// bound setting has no meaning anywhere, or a meaning here no binding, so
// the list cannot drift.
// The map is built when --help or a listing asks, not at every start-up.
var frameworkHelp = sync.OnceValue(func() map[string]string {
	help := map[string]string{
		"server.ssl.enabled":                  "HTTPS on server.port; on when server.ssl.certificate is set",
		"server.ssl.certificate":              "the server's certificate chain, a PEM file (file:path too); re-read when it changes",
		"server.ssl.certificate-private-key":  "the private key of server.ssl.certificate, a PEM file (file:path too); re-read when it changes",
		"server.ssl.trust-certificate":        "the CA (PEM file) that client certificates must be signed by, for server.ssl.client-auth; re-read when it changes",
		"server.ssl.client-auth":              "none; want: a client certificate is checked if given; need: a client without one is refused",
		"management.endpoint.shutdown.access": "unrestricted lets POST /actuator/shutdown (when exposed) stop the service; none, read-only",

		// A management port of its own's TLS (managementtls.go).
		"management.server.ssl.enabled":                 "HTTPS on management.server.port of its own; while no management.server.ssl.* is set, the port takes server.ssl's TLS; false: plain HTTP",
		"management.server.ssl.certificate":             "as server.ssl.certificate, for management.server.port of its own",
		"management.server.ssl.certificate-private-key": "as server.ssl.certificate-private-key, for management.server.port of its own",
		"management.server.ssl.trust-certificate":       "as server.ssl.trust-certificate, for management.server.port of its own",
		"management.server.ssl.client-auth":             "as server.ssl.client-auth, for management.server.port of its own",

		// /actuator/configprops's masking, as /actuator/env's.

		// Micrometer's distribution settings, named by meter.
		"management.metrics.tags.application": "a label of every series of /actuator/prometheus (application=...), as Spring's dashboards select on; any management.metrics.tags.<key> adds a label <key>",

		// CORS for the management endpoints (Spring's) and the service's
		// routes (the framework's), cors.go; off until origins are set.
		"management.endpoints.web.cors.allowed-origins":         "origins (https://example.com) whose pages may call the management endpoints from a browser, * for every one; none: CORS off",
		"management.endpoints.web.cors.allowed-origin-patterns": "as allowed-origins, with * for any text and an optional port list (https://*.example.com:[8080,8443], :[*] any port)",
		"management.endpoints.web.cors.allowed-methods":         "methods those pages may use, * for every one; none: GET and HEAD",
		"management.endpoints.web.cors.allowed-headers":         "request headers those pages may send, * for every one; none: only those browsers send unasked",
		"management.endpoints.web.cors.exposed-headers":         "response headers, beyond the simple ones, that those pages may read",
		"management.endpoints.web.cors.allow-credentials":       "browsers send cookies and HTTP authentication with those pages' requests; not with allowed-origins=*",
		"management.endpoints.web.cors.max-age":                 "how long a browser may cache a preflight's answer (a bare number is seconds)",
		"app.web.cors.allowed-origins":                          "as management.endpoints.web.cors.allowed-origins, for the service's routes and its OpenAPI document",
		"app.web.cors.allowed-origin-patterns":                  "as management.endpoints.web.cors.allowed-origin-patterns, for the service's routes",
		"app.web.cors.allowed-methods":                          "as management.endpoints.web.cors.allowed-methods, for the service's routes",
		"app.web.cors.allowed-headers":                          "as management.endpoints.web.cors.allowed-headers, for the service's routes",
		"app.web.cors.exposed-headers":                          "as management.endpoints.web.cors.exposed-headers, for the service's routes",
		"app.web.cors.allow-credentials":                        "as management.endpoints.web.cors.allow-credentials, for the service's routes",
		"app.web.cors.max-age":                                  "as management.endpoints.web.cors.max-age, for the service's routes",
		// Bearer tokens, an OAuth 2.0 resource server (jwtsettings.go).
	}
	// Each endpoint's access (endpointaccess.go); shutdown's is above.
	for _, id := range actuator.IDs {
		if key := endpointAccessKey(id); help[key] == "" {
			help[key] = "the access of /actuator/" + id + ": none (404), read-only (its GET operations only), unrestricted; default: management.endpoints.access.default"
		}
	}
	return help
})

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
	bindSettings(framework, env, svc.loggerNames())
	svc.bindStarters(framework, env, nil, "memory")
	starterHelp := map[string]string{}
	for _, st := range svc.Starters {
		maps.Copy(starterHelp, st.Help)
	}
	var list []Setting
	for _, b := range []*config.Binder{own, framework} {
		for _, key := range b.Keys() {
			s := Setting{Key: key, Own: b == own, Help: cmp.Or(svc.Help[key], b.Meaning(key))}
			if !s.Own {
				s.Help = cmp.Or(b.Meaning(key), frameworkHelp()[key], starterHelp[key])
			}
			s.Default, _ = b.Default(key)
			if v, ok, err := env.Lookup(key); ok && err == nil {
				s.Default = v.Resolved // set by a settings file
			}
			if name, ok := strings.CutPrefix(key, "logging.level."); ok && s.Help == "" {
				// A settings file names a logger: logging.level.<name>
				// is a family, bound only for the names that are set.
				s.Help = "level of the logger or group " + name
			}
			if name, ok := healthGroupName(key); ok && s.Help == "" {
				s.Help = "the health components of the health group " + name
			}
			if name, ok := strings.CutPrefix(key, tracing.HeadersPrefix); ok && s.Help == "" {
				s.Help = "the header " + name + " of every span export"
			}
			if rest, ok := strings.CutPrefix(key, ssl.PEMBundles); ok && s.Help == "" {
				s.Help = "a file of the PEM SSL bundle " + rest
			}
			if name, ok := strings.CutPrefix(key, tracing.ResourceAttributesPrefix); ok && s.Help == "" {
				s.Help = "the resource attribute " + name + " of the spans"
			}
			list = append(list, s)
		}
	}
	// The framework's maps, a key per entry, bound only for the keys
	// that are set.
	list = append(list,
		Setting{Key: tracing.HeadersPrefix + "<name>", Help: "the HTTP header <name> sent with every span export (" + tracing.HeadersPrefix +
			"authorization: Authorization), a secret, masked; none set: the pairs name=value of OTEL_EXPORTER_OTLP_HEADERS, comma-separated, percent-encoded"},
		Setting{Key: tracing.ResourceAttributesPrefix + "<key>", Help: "the attribute <key> of the spans' resource, set or overridden (deployment.environment); " +
			"the pairs key=value of OTEL_RESOURCE_ATTRIBUTES set them too, beneath these"},
		Setting{Key: "management.endpoint.health.group.<name>.include", Help: "the health components (ping, diskSpace, db, redis, the service's own) " +
			"of the health group <name>, served at /actuator/health/<name>; a component that does not exist stops start-up"},
		Setting{Key: "management.metrics.tags.<key>", Help: "a label <key> of every series of /actuator/prometheus, as Micrometer's common tags " +
			"(a key is named as Micrometer names one: cloud.region is cloud_region)"})
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
	for _, st := range svc.Starters {
		for key := range st.Help {
			if !read[key] {
				out = append(out, key+" is in the Help of the starter "+st.Name+", but nothing reads it")
			}
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
