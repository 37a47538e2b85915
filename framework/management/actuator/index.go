package actuator

import "github.com/springport/greeter/framework/dispatch"

// link is one entry of the index, as Spring HATEOAS writes it.
type link struct {
	Href      string `json:"href"`
	Templated bool   `json:"templated"`
}

type index struct {
	Links map[string]link `json:"_links"`
}

// templatedLinks are the index's links to an endpoint's paths below its
// own, which Spring names "<id>-<variable>" and marks templated: a client
// fills in the variable. {*path} is Spring's "the rest of the path".
var templatedLinks = map[string]struct{ name, path string }{
	Health: {"health-path", "/{*path}"},
	Env:    {"env-toMatch", "/{toMatch}"},
	// ConfigProps: Spring 3's configprops/{prefix}.
	ConfigProps: {"configprops-prefix", "/{prefix}"},
	Metrics:     {"metrics-requiredMetricName", "/{requiredMetricName}"},
	Loggers:     {"loggers-name", "/{name}"},
}

// handleIndex answers the base path with a link to itself and to each
// exposed endpoint. The links are absolute, from the scheme and Host of
// the request, as Spring writes them, so that a client follows them to
// the address it used, under the context path the endpoints are served
// at (server.servlet.context-path, on the service's port only).
func handleIndex(base string, ids []string) func(*dispatch.Request) (index, error) {
	return func(r *dispatch.Request) (index, error) {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		root := scheme + "://" + r.Host + dispatch.ContextPath(r.Request) + base
		links := map[string]link{"self": {Href: root}}
		for _, id := range ids {
			links[id] = link{Href: root + "/" + id}
			if t, ok := templatedLinks[id]; ok {
				links[t.name] = link{Href: root + "/" + id + t.path, Templated: true}
			}
		}
		return index{Links: links}, nil
	}
}
