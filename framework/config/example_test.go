package config_test

import (
	"fmt"
	"testing/fstest"
	"time"

	"github.com/springport/greeter/framework/config"
)

// Settings come from layered sources, as in Spring Boot: here the
// application.properties packaged in the binary, its dev profile's file,
// an environment variable and a command-line argument, each winning over
// the ones before it. Every value remembers where it came from.
// (Load also reads application.* files in the working directory's ./ and
// ./config/ folders, or Options.Dir's; there are none here.)
func ExampleLoad() {
	embedded := fstest.MapFS{
		"application.properties": {Data: []byte(
			"server.port=8080\n" +
				"app.cache.ttl=5m\n" +
				"app.banner=${app.name} on port ${server.port}\n")},
		"application-dev.properties": {Data: []byte("server.port=8081\n")},
	}
	env := map[string]string{"APP_NAME": "shop"} // relaxed name of app.name

	e, err := config.Load(config.Options{
		Embedded:  embedded,
		Args:      []string{"--app.profiles.active=dev", "--app.cache.ttl=1m"},
		LookupEnv: func(name string) (string, bool) { v, ok := env[name]; return v, ok },
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	fmt.Println("profiles:", e.ActiveProfiles())
	for _, key := range []string{"server.port", "app.cache.ttl", "app.name", "app.banner"} {
		v, _, err := e.Lookup(key)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s=%s (%s)\n", key, v.Resolved, v.Origin)
	}
	// Output:
	// profiles: [dev]
	// server.port=8081 (embedded [application-dev.properties] line 1)
	// app.cache.ttl=1m (command-line argument --app.cache.ttl=1m)
	// app.name=shop (environment variable APP_NAME)
	// app.banner=shop on port 8081 (embedded [application.properties] line 3)
}

// A Binder reads typed settings, each with its default, and collects every
// value that does not convert instead of stopping at the first: one start
// reports every bad setting, naming its key, its value and where it came
// from. A bad value gives the default, so that binding goes on.
func ExampleBind() {
	embedded := fstest.MapFS{"application.properties": {Data: []byte(
		"server.port=8080\n" +
			"app.cache.ttl=5m\n" +
			"app.read-timeout=100ms\n" +
			"app.mode=Read_Only\n")}}
	env := map[string]string{"SERVER_PORT": "http"}

	e, err := config.Load(config.Options{
		Embedded:  embedded,
		LookupEnv: func(name string) (string, bool) { v, ok := env[name]; return v, ok },
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	b := config.NewBinder(e)
	port := config.Bind(b, "server.port", 8080, config.Port)
	ttl := config.Bind(b, "app.cache.ttl", time.Minute, config.Duration)
	timeout := config.Bind(b, "app.read-timeout", 30*time.Second, config.DurationAtLeast(time.Second))
	mode := config.Bind(b, "app.mode", "read-write", config.OneOf("read-write", "read-only"))
	fmt.Println(port, ttl, timeout, mode)
	if err := b.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 8080 5m0s 30s read-only
	// setting server.port="http" from environment variable SERVER_PORT is invalid: want a port number from 0 to 65535 (0 picks a free port)
	// setting app.read-timeout="100ms" from embedded [application.properties] line 3 is invalid: want at least 1s: a shorter one leaves no time for the work it bounds
}
