package actuator

import (
	"slices"
	"strings"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// /actuator/configprops is Spring's report of the @ConfigurationProperties
// beans: Java classes whose fields Spring fills from the settings under a
// prefix (ServerProperties from server.*), each listed with the values it
// was given. There are no such beans here, but the framework knows every
// key it binds (config.Binder), with its default, so the endpoint groups
// those keys by prefix and shows what each one was bound to, in Spring's
// shape:
//
//	{"contexts":{"<service>":{"beans":{"<prefix>":{"prefix":"server",
//	  "properties":{"port":"8080","servlet":{"session":{"timeout":"30m"}}},
//	  "inputs":{"port":{"value":"9000","origin":"..."}}}}}}}
//
// Where Spring names a bean by its Java class and a property by its Java
// field (maxHttpRequestHeaderSize), this names the bean by its prefix and
// keeps the keys as they are written in settings (max-request-size): there
// is no Java name to show, and the kebab-case key is the one an operator
// can search the configuration for. Values are the texts they were bound
// from (the default, written as --help shows it, when the key is set
// nowhere), not typed JSON: the binder keeps texts, and a masked value is a
// text anyway. Inputs list only the keys set somewhere (Spring also lists
// the unset ones, empty).

var configPropsPrefix = dispatch.Path[string]("prefix")

type configPropsInput struct {
	Value  string `json:"value"`
	Origin string `json:"origin,omitempty"`
}

type configPropsBean struct {
	Prefix     string         `json:"prefix"`
	Properties map[string]any `json:"properties"`
	Inputs     map[string]any `json:"inputs"`
}

type configPropsContext struct {
	Beans map[string]configPropsBean `json:"beans"`
}

type configPropsDescriptor struct {
	Contexts map[string]configPropsContext `json:"contexts"`
}

// ConfigPropsOptions is what /actuator/configprops needs besides the environment
// and the bound keys of Options.
type ConfigPropsOptions struct {
	// Default returns a bound key's default as a setting would write it
	// (config.Binder.Default).
	Default func(key string) (string, bool)
	// ShowValues is management.endpoint.configprops.show-values: "always"
	// shows values (secrets still masked); never and when-authorized (no
	// one is authorized until there is security) mask them all.
	ShowValues string
}

// springPrefixes are the prefixes of the beans Spring binds the framework's
// settings to, where the prefix rule below would cut elsewhere: all of
// server.* is ServerProperties, management.endpoints.web.* is
// WebEndpointProperties, app.data.redis.* is Spring's spring.data.redis.*
// (RedisProperties), and so on.
var springPrefixes = []string{
	"server", "logging",
	"management.endpoints.web", "management.opentelemetry.tracing.export.otlp", "management.health.diskspace",
	"app.data.redis", "app.data.web", "app.session.data.redis",
}

// configPropsPrefixOf returns the prefix key is grouped under: the longest
// of springPrefixes it is under; management.endpoint.<id> for an
// endpoint's own settings (as Spring's per-endpoint beans); otherwise its
// first two segments, or the first when it has only two (app.greeting is
// under app, app.cache.ttl under app.cache).
func configPropsPrefixOf(key string) string {
	best := ""
	for _, p := range springPrefixes {
		if strings.HasPrefix(key, p+".") && len(p) > len(best) {
			best = p
		}
	}
	if best != "" {
		return best
	}
	parts := strings.Split(key, ".")
	if parts[0] == "management" && len(parts) > 3 && parts[1] == "endpoint" {
		return strings.Join(parts[:3], ".")
	}
	n := min(2, len(parts)-1)
	if n == 0 {
		return key
	}
	return strings.Join(parts[:n], ".")
}

// nest puts value at the dotted path rest below node, as Spring nests a
// bean's properties, and reports whether it found room. When a key is both
// a value and a parent of others (a.b and a.b.c both bound), the one that
// finds its place taken keeps its dotted path from the level above as a
// single name ("b.c" beside "b"), so that neither is lost. The report
// nests keys in sorted order, parents first, so that only a bean's own
// prefix bound as a key could find no room at the top.
func nest(node map[string]any, rest string, value any) bool {
	// At the dots, not those inside a map key in brackets
	// (logging.level.[com.Foo] nests com.Foo under level).
	head, tail, more := config.CutKey(rest)
	if !more {
		if _, taken := node[head]; taken {
			return false
		}
		node[head] = value
		return true
	}
	child, isMap := node[head].(map[string]any)
	if !isMap {
		if _, taken := node[head]; taken {
			node[rest] = value
			return true
		}
		child = map[string]any{}
		node[head] = child
	}
	if !nest(child, tail, value) {
		node[rest] = value
	}
	return true
}

// configPropsReport builds the report of the beans whose prefix starts
// with under ("" for all of them), as Spring's configprops/{prefix} does.
func configPropsReport(opts Options, under string) configPropsDescriptor {
	cp := opts.ConfigProps
	beans := map[string]configPropsBean{}
	for _, key := range slices.Sorted(slices.Values(opts.Bound)) {
		prefix := configPropsPrefixOf(key)
		if !strings.HasPrefix(prefix, under) {
			continue
		}
		bean, ok := beans[prefix]
		if !ok {
			bean = configPropsBean{Prefix: prefix, Properties: map[string]any{}, Inputs: map[string]any{}}
			beans[prefix] = bean
		}
		rest := strings.TrimPrefix(key, prefix+".")
		v, set, err := opts.Env.Lookup(key)
		switch {
		case set && err == nil:
			shown := shownValue(cp.ShowValues, key, v.Resolved)
			nest(bean.Properties, rest, shown)
			// The origin of a command-line argument quotes it, value and
			// all: it goes unless the value is shown as it is.
			origin := v.Origin
			if shown != v.Resolved || config.Sanitize(key, v.Raw) != v.Raw || cp.ShowValues != "always" {
				origin = config.OriginWithoutValue(origin)
			}
			nest(bean.Inputs, rest, configPropsInput{Value: shownValue(cp.ShowValues, key, v.Raw), Origin: origin})
		default:
			// Unset, or (for a key bound only when others allow it) a
			// placeholder that does not resolve: the bound value is the
			// default.
			def := ""
			if cp.Default != nil {
				def, _ = cp.Default(key)
			}
			nest(bean.Properties, rest, shownValue(cp.ShowValues, key, def))
		}
	}
	return configPropsDescriptor{Contexts: map[string]configPropsContext{opts.context(): {Beans: beans}}}
}

// shownValue is v as a report shows key's value under show-values: masked
// unless "always", and a secret (or a URL's password) masked even then.
// /actuator/env and /actuator/configprops show values through it alike.
func shownValue(showValues, key, v string) string {
	if showValues == "always" {
		return config.Sanitize(key, v)
	}
	return config.Mask
}

func configPropsRoutes(base string, opts Options) []dispatch.Route {
	return []dispatch.Route{
		{Method: "GET", Pattern: base + "/configprops", Produces: jsonTypes, Handler: dispatch.Returns(func(*dispatch.Request) (configPropsDescriptor, error) {
			return configPropsReport(opts, ""), nil
		})},
		{Method: "GET", Pattern: base + "/configprops/{prefix}", Produces: jsonTypes, Inputs: []dispatch.Input{configPropsPrefix},
			Handler: dispatch.Returns(func(r *dispatch.Request) (configPropsDescriptor, error) {
				return configPropsReport(opts, configPropsPrefix.Get(r)), nil
			})},
	}
}
