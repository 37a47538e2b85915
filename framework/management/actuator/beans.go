package actuator

import (
	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/dispatch"
)

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

func handleBeans(context string, components func() []component.Info) func(*dispatch.Request) (beansDescriptor, error) {
	return func(*dispatch.Request) (beansDescriptor, error) {
		beans := map[string]bean{}
		for _, c := range components() {
			deps := c.Dependencies
			if deps == nil {
				deps = []string{}
			}
			beans[c.Name] = bean{Aliases: []string{}, Scope: c.Scope.String(), Type: c.Type, Profiles: c.Profiles, Dependencies: deps}
		}
		return beansDescriptor{Contexts: map[string]beansContext{context: {Beans: beans}}}, nil
	}
}
