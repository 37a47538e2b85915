// Package actuator serves the management endpoints under /actuator, in
// Spring Boot Actuator's shapes: the index of links, health and env. Only
// exposed endpoints get routes, so one that is not exposed is a plain 404.
package actuator

import (
	"net/http"
	"slices"
	"strings"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// Base is the path under which the endpoints live.
const Base = "/actuator"

// Endpoint IDs.
const (
	Health     = "health"
	Info       = "info"
	Env        = "env"
	Beans      = "beans"
	Mappings   = "mappings"
	Prometheus = "prometheus"
)

// Exposure decides which endpoints are reachable over HTTP, from
// management.endpoints.web.exposure.include and .exclude: "*" includes
// everything, and an exclusion beats an inclusion.
type Exposure struct {
	Include []string
	Exclude []string
}

// Exposes reports whether the endpoint id is exposed.
func (e Exposure) Exposes(id string) bool {
	if slices.Contains(e.Exclude, id) || slices.Contains(e.Exclude, "*") {
		return false
	}
	return slices.Contains(e.Include, id) || slices.Contains(e.Include, "*")
}

// Options configure the endpoints.
type Options struct {
	Exposure Exposure
	// Env is the configuration that /actuator/env shows.
	Env *config.Environment
	// Bound are the keys the application binds: /actuator/env lists the
	// environment variables that set them (see
	// config.Environment.PropertySources).
	Bound []string
	// ShowValues is management.endpoint.env.show-values: "always" shows
	// values, anything else masks them.
	ShowValues string
	// Components lists the components that /actuator/beans shows.
	Components func() []component.Info
	// Mappings lists the routes that /actuator/mappings shows.
	Mappings *dispatch.Catalog
	// Prometheus serves /actuator/prometheus, in the representations
	// that PrometheusTypes lists.
	Prometheus      http.Handler
	PrometheusTypes []string
	// Probes holds the readiness that health reports.
	Probes *Probes
}

// jsonOnly is what actuator endpoints produce.
var jsonOnly = []string{"application/json"}

// Routes returns the routes of the exposed endpoints.
func Routes(opts Options) []dispatch.Route {
	var ids []string
	var routes []dispatch.Route
	add := func(id string, rs ...dispatch.Route) {
		if opts.Exposure.Exposes(id) {
			ids = append(ids, id)
			routes = append(routes, rs...)
		}
	}
	probes := opts.Probes
	if probes == nil {
		probes = NewProbes()
	}
	add(Health,
		dispatch.Route{Method: "GET", Pattern: Base + "/health", Produces: jsonOnly, Errors: []int{http.StatusServiceUnavailable}, Handler: dispatch.Returns(handleHealth(probes.overall))},
		dispatch.Route{Method: "GET", Pattern: Base + "/health/liveness", Produces: jsonOnly, Handler: dispatch.Returns(handleHealth(probes.liveness))},
		dispatch.Route{Method: "GET", Pattern: Base + "/health/readiness", Produces: jsonOnly, Errors: []int{http.StatusServiceUnavailable}, Handler: dispatch.Returns(handleHealth(probes.readiness))},
	)
	add(Info, dispatch.Route{Method: "GET", Pattern: Base + "/info", Produces: jsonOnly, Handler: dispatch.Returns(handleInfo())})
	add(Env,
		dispatch.Route{Method: "GET", Pattern: Base + "/env", Produces: jsonOnly, Handler: dispatch.Returns(handleEnv(opts))},
		dispatch.Route{Method: "GET", Pattern: Base + "/env/{name}", Produces: jsonOnly, Errors: []int{http.StatusNotFound}, Inputs: []dispatch.Input{envName}, Handler: dispatch.Returns(handleEnvProperty(opts))},
	)
	if opts.Components != nil {
		add(Beans, dispatch.Route{Method: "GET", Pattern: Base + "/beans", Produces: jsonOnly, Handler: dispatch.Returns(handleBeans(opts.Components))})
	}
	if opts.Mappings != nil {
		add(Mappings, dispatch.Route{Method: "GET", Pattern: Base + "/mappings", Produces: jsonOnly, Handler: dispatch.Returns(handleMappings(opts.Mappings))})
	}
	if opts.Prometheus != nil {
		add(Prometheus, dispatch.Route{Method: "GET", Pattern: Base + "/prometheus", Produces: opts.PrometheusTypes, Handler: dispatch.Plain(opts.Prometheus)})
	}
	routes = append(routes, dispatch.Route{Method: "GET", Pattern: Base, Produces: jsonOnly, Handler: dispatch.Returns(handleIndex(ids))})
	return routes
}

// link is one entry of the index, as Spring HATEOAS writes it.
type link struct {
	Href      string `json:"href"`
	Templated bool   `json:"templated"`
}

type index struct {
	Links map[string]link `json:"_links"`
}

func handleIndex(ids []string) func(*dispatch.Request) (index, error) {
	return func(r *dispatch.Request) (index, error) {
		base := "http://" + r.Host + Base
		links := map[string]link{"self": {Href: base}}
		for _, id := range ids {
			links[id] = link{Href: base + "/" + id}
			if id == Env {
				links[id+"-toMatch"] = link{Href: base + "/" + id + "/{toMatch}", Templated: true}
			}
		}
		return index{Links: links}, nil
	}
}

var envName = dispatch.Path[string]("name")

const mask = "******"

type envValue struct {
	Value  string `json:"value"`
	Origin string `json:"origin,omitempty"`
}

type envSource struct {
	Name       string              `json:"name"`
	Properties map[string]envValue `json:"properties"`
}

type envDescriptor struct {
	ActiveProfiles  []string    `json:"activeProfiles"`
	DefaultProfiles []string    `json:"defaultProfiles"`
	PropertySources []envSource `json:"propertySources"`
}

func (o Options) show(v string) string {
	if o.ShowValues == "always" {
		return v
	}
	return mask
}

// origin is where a property came from, without the value when values are
// masked: a command-line origin quotes the whole argument.
func (o Options) origin(origin string) string {
	if o.ShowValues == "always" {
		return origin
	}
	if arg, ok := strings.CutPrefix(origin, "command-line argument "); ok {
		key, _, _ := strings.Cut(arg, "=")
		return "command-line argument " + key
	}
	return origin
}

func handleEnv(opts Options) func(*dispatch.Request) (envDescriptor, error) {
	return func(*dispatch.Request) (envDescriptor, error) {
		d := envDescriptor{
			ActiveProfiles:  opts.Env.ExplicitProfiles(),
			DefaultProfiles: opts.Env.DefaultProfiles(),
			PropertySources: []envSource{},
		}
		for _, src := range opts.Env.PropertySources(opts.Bound) {
			s := envSource{Name: src.Name, Properties: map[string]envValue{}}
			for _, p := range src.Entries {
				s.Properties[p.Key] = envValue{Value: opts.show(opts.Env.Resolve(p.Value)), Origin: opts.origin(p.Origin)}
			}
			d.PropertySources = append(d.PropertySources, s)
		}
		return d, nil
	}
}

type propertyWinner struct {
	Source string `json:"source"`
	Value  string `json:"value"`
}

type sourceProperty struct {
	Name     string    `json:"name"`
	Property *envValue `json:"property,omitempty"`
}

type envPropertyDescriptor struct {
	Property        propertyWinner   `json:"property"`
	ActiveProfiles  []string         `json:"activeProfiles"`
	DefaultProfiles []string         `json:"defaultProfiles"`
	PropertySources []sourceProperty `json:"propertySources"`
}

func handleEnvProperty(opts Options) func(*dispatch.Request) (envPropertyDescriptor, error) {
	return func(r *dispatch.Request) (envPropertyDescriptor, error) {
		name := envName.Get(r)
		v, ok, err := opts.Env.Lookup(name)
		if !ok || err != nil {
			return envPropertyDescriptor{}, &dispatch.Error{Status: http.StatusNotFound, Detail: "No property '" + dispatch.Clip(name) + "' is set."}
		}
		d := envPropertyDescriptor{
			Property:        propertyWinner{Source: v.Source, Value: opts.show(v.Resolved)},
			ActiveProfiles:  opts.Env.ExplicitProfiles(),
			DefaultProfiles: opts.Env.DefaultProfiles(),
		}
		for _, src := range opts.Env.PropertySources(opts.Bound) {
			sp := sourceProperty{Name: src.Name}
			for _, p := range src.Entries {
				if p.Key == name || slices.Contains(config.EnvNames(name), p.Key) {
					sp.Property = &envValue{Value: opts.show(opts.Env.Resolve(p.Value)), Origin: opts.origin(p.Origin)}
				}
			}
			d.PropertySources = append(d.PropertySources, sp)
		}
		return d, nil
	}
}

// bean is one component as /actuator/beans shows it: Spring's fields, and
// the profile condition, which Spring leaves out.
type bean struct {
	Aliases      []string `json:"aliases"`
	Scope        string   `json:"scope"`
	Type         string   `json:"type"`
	Profiles     string   `json:"profiles,omitempty"`
	Dependencies []string `json:"dependencies"`
}

type beansContext struct {
	Beans map[string]bean `json:"beans"`
}

type beansDescriptor struct {
	Contexts map[string]beansContext `json:"contexts"`
}

func handleBeans(components func() []component.Info) func(*dispatch.Request) (beansDescriptor, error) {
	return func(*dispatch.Request) (beansDescriptor, error) {
		beans := map[string]bean{}
		for _, c := range components() {
			deps := c.Dependencies
			if deps == nil {
				deps = []string{}
			}
			beans[c.Name] = bean{Aliases: []string{}, Scope: c.Scope.String(), Type: c.Type, Profiles: c.Profiles, Dependencies: deps}
		}
		return beansDescriptor{Contexts: map[string]beansContext{"application": {Beans: beans}}}, nil
	}
}
