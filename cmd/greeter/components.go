package main

import (
	"context"
	"time"

	"github.com/springport/greeter/api"
	"github.com/springport/greeter/domain/dateformat"
	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/domain/number"
	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/inmem"
)

// declareComponents declares the service's components. The number
// component's scope comes from app.number.scope; the two number endpoints
// each hold a handle to it, as the original's two controllers each get it
// injected, so its scope alone decides who shares an instance.
func declareComponents(r *component.Registry, numberScope component.Scope, clock func() time.Time) {
	component.Provide(r, component.Def[message.Store]{
		Name: "messages",
		New:  func(*component.Context) (message.Store, error) { return &inmem.Messages{}, nil },
	})
	component.Provide(r, component.Def[*number.Number]{
		Name:  "number",
		Scope: numberScope,
		New:   func(*component.Context) (*number.Number, error) { return number.New(nil), nil },
	})
	for _, name := range []string{"numberControllerA", "numberControllerB"} {
		component.Provide(r, component.Def[api.NumberSource]{
			Name:  name,
			Needs: []component.Dep{component.NeedHandle[*number.Number]()},
			New: func(c *component.Context) (api.NumberSource, error) {
				h, err := component.GetHandle[*number.Number](c)
				if err != nil {
					return nil, err
				}
				return func(ctx context.Context) (*number.Number, error) { return h.Get(ctx) }, nil
			},
		})
	}
	component.Provide(r, component.Def[dateformat.Provider]{
		Name:     "simpleDateFormat",
		Profiles: []string{"dev"},
		New:      func(*component.Context) (dateformat.Provider, error) { return dateformat.Simple{Clock: clock}, nil },
	})
	component.Provide(r, component.Def[dateformat.Provider]{
		Name:     "isoDateFormat",
		Profiles: []string{"!dev"},
		New:      func(*component.Context) (dateformat.Provider, error) { return dateformat.ISO{Clock: clock}, nil },
	})
}
