package redisstore_test

import (
	"context"
	"errors"
	"log"
	"net/http"
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/outage"
	"github.com/springport/greeter/framework/session/redisstore"
)

// A service that runs as several instances keeps its sessions in Redis:
// a request may reach any instance, and a restart logs no one out. The
// store is the session scope's store (component.Options.Sessions), and
// its Ping makes a health indicator, so that an instance whose Redis is
// down reports itself not ready. (boot does all this when
// app.session.store-type is redis.)
//
// This example needs a Redis server, so it is compiled but not run.
func ExampleOpen() {
	ctx := context.Background()
	store, err := redisstore.Open(ctx, redisstore.Options{
		URL:         "redis://127.0.0.1:6379/0",
		Namespace:   "shop:session", // keys are shop:session:sessions:<id>
		IdleTimeout: 30 * time.Minute,
	})
	var down *outage.Error
	if errors.As(err, &down) {
		log.Fatalf("%s cannot be reached: %v", down.Dependency, down.Err)
	}
	if err != nil { // a malformed URL, refused credentials
		log.Fatal(err)
	}
	defer store.Close()

	var reg component.Registry
	// ... session-scoped components, each an encoding.BinaryMarshaler and
	// BinaryUnmarshaler, so that every instance can restore its state ...
	c, err := reg.Start(nil, component.Options{Sessions: store})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	redis := actuator.Indicator{Name: "redis", Check: func(ctx context.Context) (map[string]any, error) {
		version, err := store.Ping(ctx)
		if err != nil {
			return nil, err
		}
		return map[string]any{"version": version}, nil
	}}
	d, err := dispatch.New(dispatch.Options{}, actuator.Routes(actuator.Options{
		Exposure: actuator.Exposure{Include: []string{actuator.Health}},
		Probes:   actuator.NewProbes(redis), // not ready while Redis is down
	})...) // ... with the service's own routes
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe(":8080", c.Middleware(d)))
}
