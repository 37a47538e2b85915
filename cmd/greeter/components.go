package main

import (
	"context"
	"time"

	"github.com/springport/greeter/api"
	"github.com/springport/greeter/domain/dateformat"
	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/domain/number"
	"github.com/springport/greeter/framework/component"
)

// numberSources are the components behind the two number endpoints.
type numberSources struct {
	valA, valB component.Ref[api.NumberSource]
}

// declareComponents declares the service's components. The message store,
// built by the wiring, is one so that /actuator/beans lists it. The number
// component's scope comes from app.number.scope; the two number endpoints
// each hold a handle to it, as the original's two controllers each get it
// injected, so its scope alone decides who shares an instance.
func declareComponents(r *component.Registry, messages message.Store, numberScope component.Scope, clock func() time.Time) numberSources {
	var d numberSources
	component.Provide(r, component.Def[message.Store]{
		Name: "messages",
		New:  func(*component.Context) (message.Store, error) { return messages, nil },
	})
	component.Provide(r, component.Def[*number.Number]{
		Name:  "number",
		Scope: numberScope,
		New:   func(*component.Context) (*number.Number, error) { return number.New(nil), nil },
	})
	d.valA = provideNumberController(r, "numberControllerA")
	d.valB = provideNumberController(r, "numberControllerB")
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
	return d
}

// provideNumberController declares a number endpoint's source: a handle to
// the number component, resolved per request.
func provideNumberController(r *component.Registry, name string) component.Ref[api.NumberSource] {
	return component.Provide(r, component.Def[api.NumberSource]{
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
