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
