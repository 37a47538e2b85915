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

func handleIndex(ids []string) func(*dispatch.Request) (index, error) {
	return func(r *dispatch.Request) (index, error) {
		base := "http://" + r.Host + Base
		links := map[string]link{"self": {Href: base}}
		for _, id := range ids {
			links[id] = link{Href: base + "/" + id}
			if id == Env {
				links[id+"-toMatch"] = link{Href: base + "/" + id + "/{toMatch}", Templated: true}
			}
			if id == Loggers {
				links[id+"-name"] = link{Href: base + "/" + id + "/{name}", Templated: true}
			}
		}
		return index{Links: links}, nil
	}
}
