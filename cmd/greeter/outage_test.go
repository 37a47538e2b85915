package main

// Outages of the engines: a request that needs one is answered 503 within
// the configured time, one that needs neither is served, readiness drops
// while it lasts, and the service recovers by itself, losing nothing it
// acknowledged.

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/enginetest"
)

// How long a request may take to be refused while an engine is
// unreachable: less than the engine's default timeouts (the database's
// connection and query timeouts, Redis's). Had the one-second timeouts
// that startBehindProxies sets not applied, a request would wait at least
// that long, however idle the machine; with them it waits one second, and
// a busy machine has the rest to spare.
const (
	databaseBound = 5 * time.Second // app.datasource.hikari.connection-timeout's and app.jdbc.template.query-timeout's default
	redisBound    = 3 * time.Second // app.data.redis.timeout's and connect-timeout's default
)

// startBehindProxies starts an instance whose database and Redis are
// reached through proxies the test controls, with one-second timeouts.
func startBehindProxies(t *testing.T, extra ...string) (s *service, db, cache *enginetest.Proxy) {
	t.Helper()
	e := newEngines(t)
	dbURL, _ := url.Parse(e.databaseURL)
	redisURL, _ := url.Parse(e.redisURL)
	db, cache = enginetest.NewProxy(t, dbURL.Host), enginetest.NewProxy(t, redisURL.Host)
	e.databaseURL, e.redisURL = withHost(t, e.databaseURL, db.Addr()), withHost(t, e.redisURL, cache.Addr())
	args := append(e.args(),
		"--app.jdbc.template.query-timeout=1s", "--app.datasource.hikari.connection-timeout=1s",
		"--app.data.redis.timeout=1s", "--app.data.redis.connect-timeout=1s",
		"--management.endpoint.health.show-details=always")
	return start(t, append(args, extra...), nil), db, cache
}

// timed runs f and fails the test unless it takes less than bound.
func timed(t *testing.T, what string, bound time.Duration, f func()) {
	t.Helper()
	began := time.Now()
	f()
	if took := time.Since(began); took >= bound {
		t.Errorf("%s took %v, want less than %v: the one-second timeouts set do not bound it", what, took.Round(time.Millisecond), bound)
	}
}

func TestDatabaseOutage(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"cut", "hang"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			s, db, _ := startBehindProxies(t)
			if r := s.do(t, "POST", "/api/messages", `{"text":"before"}`, "Content-Type: application/json"); r.status != 201 {
				t.Fatalf("before the outage: %d %s", r.status, r.body)
			}
			map[string]func(){"cut": db.Cut, "hang": db.Hang}[mode]()

			// Were a write of the outage to land after all, these would
			// leave a state that says which.
			for _, req := range []struct{ method, path, body string }{
				{"POST", "/api/messages", `{"text":"during"}`},
				{"GET", "/api/messages", ""},
				{"GET", "/api/messages/0", ""},
				{"PUT", "/api/messages/0", `{"text":"before"}`},
				{"DELETE", "/api/messages/99", ""},
			} {
				timed(t, req.method+" "+req.path, databaseBound, func() {
					r := s.do(t, req.method, req.path, req.body, "Content-Type: application/json")
					p := decodeJSON[boottest.Problem](t, r)
					if r.status != 503 || !strings.HasPrefix(p.Detail, "PostgreSQL is unavailable") {
						t.Errorf("%s %s during the outage: %d %s", req.method, req.path, r.status, r.body)
					}
				})
			}
			if r := s.do(t, "GET", "/api/hello", ""); r.status != 200 {
				t.Errorf("a request that needs no engine: %d", r.status)
			}
			timed(t, "readiness", databaseBound, func() {
				// The readiness group lists its members, as every group
				// does with show-details=always: the store is DOWN in it.
				if r := s.do(t, "GET", "/actuator/health/readiness", ""); r.status != 503 ||
					!strings.HasPrefix(r.body, `{"status":"OUT_OF_SERVICE",`) || !strings.Contains(r.body, `"db":{"status":"DOWN"`) {
					t.Errorf("readiness during the outage: %d %s", r.status, r.body)
				}
			})
			if r := s.do(t, "GET", "/actuator/health/liveness", ""); r.status != 200 {
				t.Errorf("liveness during the outage: %d %s", r.status, r.body)
			}
			if r := s.do(t, "GET", "/actuator/health", ""); r.status != 503 || !strings.Contains(r.body, `"db":{"status":"DOWN"`) || !strings.Contains(r.body, `"redis":{"status":"UP"`) {
				t.Errorf("health during the outage: %d %s", r.status, r.body)
			}

			db.Restore()
			waitFor(t, "a POST to succeed after the outage", func() bool {
				status, _ := post(s.base, "after")
				return status == 201
			})
			// The proxy drops what a hung connection held (see
			// enginetest.Proxy.Hang), so no write of the outage lands.
			got := texts(t, s.base)
			if want := []string{"before", "after"}; !slices.Equal(got, want) {
				t.Errorf("after the outage the messages are %q, want %q", got, want)
			}
			if r := s.do(t, "GET", "/actuator/health/readiness", ""); r.status != 200 {
				t.Errorf("readiness after the outage: %d %s", r.status, r.body)
			}
		})
	}
}

func TestRedisOutage(t *testing.T) {
	t.Parallel()
	s, _, cache := startBehindProxies(t, "--app.number.scope=session")
	cache.Hang()
	timed(t, "val-a", redisBound, func() {
		r := s.do(t, "GET", "/api/number/val-a", "")
		p := decodeJSON[boottest.Problem](t, r)
		if r.status != 503 || !strings.HasPrefix(p.Detail, "Redis is unavailable") {
			t.Errorf("val-a with Redis down: %d %s", r.status, r.body)
		}
	})
	if r := s.do(t, "POST", "/api/messages", `{"text":"still"}`, "Content-Type: application/json"); r.status != 201 {
		t.Errorf("a request that needs only the database: %d %s", r.status, r.body)
	}
	timed(t, "readiness", redisBound, func() {
		if r := s.do(t, "GET", "/actuator/health/readiness", ""); r.status != 503 {
			t.Errorf("readiness with Redis down: %d %s", r.status, r.body)
		}
	})
	cache.Restore()
	waitFor(t, "val-a to answer after the outage", func() bool {
		status, _, _ := send("GET", s.base+"/api/number/val-a")
		return status == 200
	})
}

// TestDatabaseConnectionsCutUnderLoad terminates the service's database
// connections while clients post: the answers are 201 or 503, never
// anything else, the service recovers without a restart, and every
// acknowledged message is stored once.
func TestDatabaseConnectionsCutUnderLoad(t *testing.T) {
	t.Parallel()
	e := newEngines(t)
	s := start(t, e.args(), nil)
	load := startPostLoad(6, func(int, int) string { return s.base })
	waitFor(t, "200 acknowledged POSTs", func() bool { return load.acknowledged("") >= 200 })
	cuts := 0
	for range 3 {
		cuts += enginetest.TerminateBackends(t, e.databaseURL)
		before := load.acknowledged("")
		waitFor(t, "100 more acknowledged POSTs after the cut", func() bool { return load.acknowledged("") >= before+100 })
	}
	load.finish()
	if cuts == 0 {
		t.Fatal("no connection was cut: the test tested nothing")
	}
	for status, n := range load.statuses[s.base] {
		if status != 201 && status != 503 {
			t.Errorf("%d answers of %d (or no answer, 0), want only 201 and 503", n, status)
		}
	}
	checkAcknowledgedOnce(t, texts(t, s.base), load.acked, load.sent)
	t.Logf("cut %d connections; answers: %v", cuts, load.statuses[s.base])
}

// TestUnreachableEngineStopsStartUp: a database or Redis that cannot be
// reached at start-up stops it, naming the setting, and never printing
// the password in its URL. No engine is needed.
func TestUnreachableEngineStopsStartUp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, setting string
		args          []string
	}{
		{"database", "app.datasource.url", []string{"--app.datasource.url=postgres://app:hunter2@127.0.0.1:1/greeter", "--app.datasource.hikari.connection-timeout=1s"}},
		{"redis", "app.data.redis.url", []string{"--app.session.store-type=redis", "--app.data.redis.url=redis://:hunter2@127.0.0.1:1/0", "--app.data.redis.connect-timeout=1s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stderr, err := boottest.FailToStart(t, greeter(), append([]string{"--server.port=0"}, tt.args...), nil)
			if err == nil {
				t.Fatal("the service started")
			}
			for _, want := range []string{"APPLICATION FAILED TO START", "Property: " + tt.setting, "******", "127.0.0.1:1", "Origin: command-line argument --" + tt.setting + "\n"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("the report lacks %q:\n%s", want, stderr)
				}
			}
			if strings.Contains(stderr, "hunter2") {
				t.Errorf("the report prints the password:\n%s", stderr)
			}
		})
	}
}

// TestUnreachableRedisNamesItsSetting: whichever setting says where
// Redis is (the host, the Sentinels, the Cluster's nodes), a Redis that
// cannot be reached at start-up stops it naming that setting, and no
// password is printed.
func TestUnreachableRedisNamesItsSetting(t *testing.T) {
	t.Parallel()
	redis := []string{"--server.port=0", "--app.session.store-type=redis", "--app.data.redis.password=hunter2",
		"--app.data.redis.connect-timeout=1s", "--app.data.redis.timeout=1s"}
	for setting, args := range map[string][]string{
		"app.data.redis.host":           {"--app.data.redis.host=127.0.0.1", "--app.data.redis.port=1"},
		"app.data.redis.sentinel.nodes": {"--app.data.redis.sentinel.master=mymaster", "--app.data.redis.sentinel.nodes=127.0.0.1:1"},
		"app.data.redis.cluster.nodes":  {"--app.data.redis.cluster.nodes=127.0.0.1:1"},
	} {
		stderr, err := boottest.FailToStart(t, greeter(), append(redis, args...), nil)
		if err == nil {
			t.Errorf("%s: the service started", setting)
			continue
		}
		for _, want := range []string{"APPLICATION FAILED TO START", "Property: " + setting + "\n", "127.0.0.1", "Origin: command-line argument --" + setting} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s: the report lacks %q:\n%s", setting, want, stderr)
			}
		}
		if strings.Contains(stderr, "hunter2") {
			t.Errorf("%s: the report prints the password:\n%s", setting, stderr)
		}
	}
}
