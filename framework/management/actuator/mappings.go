package actuator

import (
	"strings"

	"github.com/springport/greeter/framework/dispatch"
)

// The mappings document, in Spring's shape: one entry per route with its
// request-mapping conditions, plus the success status.
type mappingsDescriptor struct {
	Contexts map[string]mappingsContext `json:"contexts"`
}

type mappingsContext struct {
	Mappings struct {
		DispatcherServlets map[string][]mapping `json:"dispatcherServlets"`
	} `json:"mappings"`
}

type mapping struct {
	Handler   string         `json:"handler"`
	Predicate string         `json:"predicate"`
	Details   mappingDetails `json:"details"`
}

type mappingDetails struct {
	RequestMappingConditions conditions `json:"requestMappingConditions"`
	Status                   int        `json:"status"`
}

type conditions struct {
	Consumes []mediaTypeCondition `json:"consumes"`
	Headers  []string             `json:"headers"`
	Methods  []string             `json:"methods"`
	Params   []paramCondition     `json:"params"`
	Patterns []string             `json:"patterns"`
	Produces []mediaTypeCondition `json:"produces"`
}

type mediaTypeCondition struct {
	MediaType string `json:"mediaType"`
	Negated   bool   `json:"negated"`
}

type paramCondition struct {
	Name    string `json:"name"`
	Value   string `json:"value,omitempty"`
	Negated bool   `json:"negated"`
}

func handleMappings(context string, catalog *dispatch.Catalog) func(*dispatch.Request) (mappingsDescriptor, error) {
	return func(*dispatch.Request) (mappingsDescriptor, error) {
		var list []mapping
		for _, r := range catalog.Routes() {
			c := conditions{
				Consumes: mediaConditions(r.Consumes),
				Headers:  []string{},
				Methods:  []string{r.Method},
				Params:   []paramCondition{},
				Patterns: []string{r.Pattern},
				Produces: mediaConditions(r.Produces),
			}
			var exprs []string
			for _, p := range r.Params {
				c.Params = append(c.Params, paramCondition{Name: p.Name, Value: p.Value, Negated: p.Negated})
				exprs = append(exprs, p.String())
			}
			predicate := "{" + r.Method + " [" + r.Pattern + "]"
			if len(exprs) > 0 {
				predicate += ", params [" + strings.Join(exprs, " && ") + "]"
			}
			if len(r.Consumes) > 0 {
				predicate += ", consumes [" + strings.Join(typeNames(r.Consumes), " || ") + "]"
			}
			if len(r.Produces) > 0 {
				predicate += ", produces [" + strings.Join(typeNames(r.Produces), " || ") + "]"
			}
			predicate += "}"
			list = append(list, mapping{Handler: r.Method + " " + r.Pattern, Predicate: predicate,
				Details: mappingDetails{RequestMappingConditions: c, Status: r.Status}})
		}
		var ctx mappingsContext
		ctx.Mappings.DispatcherServlets = map[string][]mapping{"dispatcherServlet": list}
		return mappingsDescriptor{Contexts: map[string]mappingsContext{context: ctx}}, nil
	}
}

func mediaConditions(types []dispatch.MediaType) []mediaTypeCondition {
	out := []mediaTypeCondition{}
	for _, t := range types {
		out = append(out, mediaTypeCondition{MediaType: t.Type})
	}
	return out
}

func typeNames(types []dispatch.MediaType) []string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = t.Type
	}
	return names
}
