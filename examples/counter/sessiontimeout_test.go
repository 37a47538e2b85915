package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/enginetest"
)

// TestSpringSessionTimeout: Spring Session's spring.session.timeout (here
// SPRING_SESSION_TIMEOUT) wins over server.servlet.session.timeout, as in
// Spring: the session saved in Redis expires after it. Redis and the
// sessions' namespace are named by Spring's variables too.
func TestSpringSessionTimeout(t *testing.T) {
	t.Parallel()
	redisURL, prefix := enginetest.Redis(t)
	s := boottest.Start(t, service, []string{"--app.session.store-type=redis", "--server.servlet.session.timeout=1h"},
		map[string]string{"SPRING_SESSION_TIMEOUT": "90s", "SPRING_DATA_REDIS_URL": redisURL,
			"SPRING_SESSION_DATA_REDIS_NAMESPACE": strings.TrimSuffix(prefix, ":")})
	newClient(t, s.URL).expect("POST", "/counters/apples", `{"by":1}`, 200, `"value":1`)

	opts, err := redis.ParseURL(redisURL)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	ctx := context.Background()
	keys, err := rdb.Keys(ctx, prefix+"*").Result()
	if err != nil || len(keys) == 0 {
		t.Fatalf("the session's keys under %s: %v, %v", prefix, keys, err)
	}
	for _, k := range keys {
		if ttl, err := rdb.TTL(ctx, k).Result(); err != nil || ttl <= 0 || ttl > 90*time.Second {
			t.Errorf("%s expires in %v (%v), want at most 90s (SPRING_SESSION_TIMEOUT), not 1h", k, ttl, err)
		}
	}
}

// TestSpringBoot35SessionNamespace: Spring Boot 3.5's name of the
// sessions' namespace, SPRING_SESSION_REDIS_NAMESPACE (4.0:
// SPRING_SESSION_DATA_REDIS_NAMESPACE), still puts the session's keys in
// Redis under it, with one warning naming the new name.
func TestSpringBoot35SessionNamespace(t *testing.T) {
	t.Parallel()
	redisURL, prefix := enginetest.Redis(t)
	s := boottest.Start(t, service, []string{"--app.session.store-type=redis"},
		map[string]string{"SPRING_DATA_REDIS_URL": redisURL, "SPRING_SESSION_REDIS_NAMESPACE": strings.TrimSuffix(prefix, ":")})
	newClient(t, s.URL).expect("POST", "/counters/apples", `{"by":1}`, 200, `"value":1`)

	opts, err := redis.ParseURL(redisURL)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	if keys, err := rdb.Keys(context.Background(), prefix+"*").Result(); err != nil || len(keys) == 0 {
		t.Fatalf("the session's keys under %s: %v, %v", prefix, keys, err)
	}
	want := `key=SPRING_SESSION_REDIS_NAMESPACE origin="environment variable SPRING_SESSION_REDIS_NAMESPACE" replacement=SPRING_SESSION_DATA_REDIS_NAMESPACE`
	if out := s.Stdout.String(); strings.Count(out, want) != 1 || strings.Count(out, "has been renamed") != 1 {
		t.Errorf("want one warning with %s:\n%s", want, out)
	}
}
