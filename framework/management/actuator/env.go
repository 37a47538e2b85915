package actuator

import (
	"net/http"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// envName is the name of /actuator/env/{toMatch}, named as Spring names
// the path variable: the route's pattern is the uri tag of its requests'
// metrics, which a Spring team's dashboards select on.
var envName = dispatch.Path[string]("toMatch")

type envValue struct {
	Value  string `json:"value"`
	Origin string `json:"origin,omitempty"`
	// OriginParents are the origins of the imports that read the
	// setting's file, nearest first, as Spring lists them.
	OriginParents []string `json:"originParents,omitempty"`
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

// show is the value of key as the endpoint shows it: masked unless
// show-values is always, and a secret masked even then.
func (o Options) show(key, v string) string { return shownValue(o.ShowValues, key, v) }

// origin is where a property came from, without the value when the value
// is not shown as it is: a command-line origin quotes the whole argument.
func (o Options) origin(key, value, origin string) string {
	if o.ShowValues == "always" && config.Sanitize(key, value) == value {
		return origin
	}
	return config.OriginWithoutValue(origin)
}

// value is how the endpoints show the entry p.
func (o Options) value(p config.Entry) *envValue {
	v := &envValue{Value: o.show(p.Key, o.Env.Resolve(p.Value)), Origin: o.origin(p.Key, p.Value, p.Origin)}
	for _, parent := range p.OriginParents {
		// A parent is the origin of an import list, shown without the
		// list unless values are shown.
		if o.ShowValues != "always" {
			parent = config.OriginWithoutValue(parent)
		}
		v.OriginParents = append(v.OriginParents, parent)
	}
	return v
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
				s.Properties[p.Key] = *opts.value(p)
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
		// Only what /actuator/env lists, so that the two agree and a
		// variable the service does not read answers as one not set.
		v, ok, err := opts.Env.LookupListed(name, opts.Bound)
		if !ok {
			return envPropertyDescriptor{}, &dispatch.Error{Status: http.StatusNotFound, Detail: "No property '" + dispatch.Clip(name) + "' is set."}
		}
		value := v.Resolved
		if err != nil {
			// A setting nobody reads may hold a placeholder that does not
			// resolve; as Spring does, show it as written.
			value = v.Raw
		}
		d := envPropertyDescriptor{
			Property:        propertyWinner{Source: v.Source, Value: opts.show(name, value)},
			ActiveProfiles:  opts.Env.ExplicitProfiles(),
			DefaultProfiles: opts.Env.DefaultProfiles(),
		}
		for _, src := range opts.Env.PropertySources(opts.Bound) {
			sp := sourceProperty{Name: src.Name}
			if p, ok := src.Lookup(name); ok {
				sp.Property = opts.value(p) // in any form, as the key is read from the source
			}
			d.PropertySources = append(d.PropertySources, sp)
		}
		return d, nil
	}
}
