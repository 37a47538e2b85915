package main

import (
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/domain/dateformat"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/messagestore/inmem"
)

// numbers reads val-a then val-b with client.
func numbers(t *testing.T, s *service, client *http.Client) (a, b string) {
	t.Helper()
	get := func(path string) string {
		r := s.doWith(t, client, "GET", path, "")
		if r.status != 200 {
			t.Fatalf("GET %s: %d %s", path, r.status, r.body)
		}
		return strconv.Itoa(int(decodeJSON[int32](t, r)))
	}
	return get("/api/number/val-a"), get("/api/number/val-b")
}

func jar(t *testing.T) *http.Client {
	j, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: j}
}

// TestNumberScopes checks each value of app.number.scope through the two
// number endpoints, set once each way: argument, environment, settings file.
func TestNumberScopes(t *testing.T) {
	// Not parallel: its last subtest changes the working directory (t.Chdir).
	t.Run("prototype by default", func(t *testing.T) {
		s := start(t, nil, nil)
		a1, b1 := numbers(t, s, http.DefaultClient)
		a2, b2 := numbers(t, s, http.DefaultClient)
		if a1 == b1 || a1 != a2 || b1 != b2 {
			t.Errorf("prototype: val-a %s then %s, val-b %s then %s; want each fixed and the two different", a1, a2, b1, b2)
		}
	})
	t.Run("request by argument", func(t *testing.T) {
		s := start(t, []string{"--app.number.scope=request"}, nil)
		seen := map[string]bool{}
		for range 4 {
			a, b := numbers(t, s, http.DefaultClient)
			seen[a], seen[b] = true, true
		}
		if len(seen) != 8 {
			t.Errorf("request scope: 8 requests gave %d distinct numbers, want 8", len(seen))
		}
	})
	t.Run("singleton by environment", func(t *testing.T) {
		s := start(t, nil, map[string]string{"APP_NUMBER_SCOPE": "singleton"})
		a1, b1 := numbers(t, s, http.DefaultClient)
		a2, b2 := numbers(t, s, jar(t))
		if a1 != b1 || a1 != a2 || a1 != b2 {
			t.Errorf("singleton: %s %s %s %s, want one number everywhere", a1, b1, a2, b2)
		}
	})
	t.Run("session by settings file", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "application.properties"), []byte("app.number.scope=session\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		s := start(t, nil, nil)
		alice, bob := jar(t), jar(t)
		a1, b1 := numbers(t, s, alice)
		a2, b2 := numbers(t, s, alice)
		c1, _ := numbers(t, s, bob)
		if a1 != b1 || a1 != a2 || a1 != b2 {
			t.Errorf("session: one client saw %s %s %s %s, want one number for its session", a1, b1, a2, b2)
		}
		if c1 == a1 {
			t.Errorf("session: two sessions both saw %s, want different numbers", a1)
		}
	})
}

func TestBadNumberScope(t *testing.T) {
	t.Parallel()
	report, err := boottest.FailToStart(t, greeter(), []string{"--server.port=0", "--app.number.scope=websocket"}, nil)
	if err == nil {
		t.Fatal("run started with app.number.scope=websocket")
	}
	for _, want := range []string{"Property: app.number.scope", `Value: "websocket"`, "Reason: want one of prototype, request, session, singleton"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}

func TestBeans(t *testing.T) {
	t.Parallel()
	type bean struct {
		Scope        string   `json:"scope"`
		Type         string   `json:"type"`
		Profiles     string   `json:"profiles"`
		Dependencies []string `json:"dependencies"`
	}
	beans := func(t *testing.T, args ...string) map[string]bean {
		s := start(t, append(args, "--management.endpoints.web.exposure.include=beans"), nil)
		r := s.do(t, "GET", "/actuator/beans", "")
		if r.status != 200 {
			t.Fatalf("/actuator/beans: %d %s", r.status, r.body)
		}
		return decodeJSON[struct {
			Contexts map[string]struct {
				Beans map[string]bean `json:"beans"`
			} `json:"contexts"`
		}](t, r).Contexts["greeter"].Beans
	}
	dev := beans(t, "--app.profiles.active=dev", "--app.number.scope=request")
	if _, ok := dev["isoDateFormat"]; ok {
		t.Error("with dev active, isoDateFormat (!dev) is listed")
	}
	if b := dev["simpleDateFormat"]; b.Profiles != "dev" || b.Scope != "singleton" || b.Type != "github.com/springport/greeter/domain/dateformat.Provider" {
		t.Errorf("simpleDateFormat: %+v", b)
	}
	if b := dev["number"]; b.Scope != "request" || b.Type != "*github.com/springport/greeter/domain/number.Number" {
		t.Errorf("number: %+v", b)
	}
	if b := dev["numberControllerA"]; len(b.Dependencies) != 1 || b.Dependencies[0] != "number" {
		t.Errorf("numberControllerA dependencies: %v, want [number]", b.Dependencies)
	}
	plain := beans(t)
	if _, ok := plain["simpleDateFormat"]; ok {
		t.Error("without dev, simpleDateFormat (dev) is listed")
	}
	if b, ok := plain["isoDateFormat"]; !ok || b.Profiles != "!dev" {
		t.Errorf("without dev, isoDateFormat: %+v, %v", b, ok)
	}
	if b := plain["number"]; b.Scope != "prototype" {
		t.Errorf("number scope by default: %q, want prototype", b.Scope)
	}
}

// TestDateFormatByProfile resolves the date-format provider the service
// declares, with a fixed clock: the simple format under dev, ISO-8601
// under every other profile set.
func TestDateFormatByProfile(t *testing.T) {
	epoch := func() time.Time { return time.Unix(0, 0) }
	for _, tt := range []struct {
		active []string
		want   string
	}{
		{[]string{"dev"}, "1/1/70, 12:00 AM"},
		{[]string{"qa", "dev"}, "1/1/70, 12:00 AM"},
		{[]string{"default"}, "1970-01-01T00:00:00.000+00:00"},
		{[]string{"qa"}, "1970-01-01T00:00:00.000+00:00"},
	} {
		r := &component.Registry{}
		declareComponents(r, &inmem.Messages{}, component.Prototype, epoch)
		stamp := component.Provide(r, component.Def[string]{
			Name:  "stamp",
			Needs: []component.Dep{component.Need[dateformat.Provider]()},
			New: func(c *component.Context) (string, error) {
				p, err := component.Get[dateformat.Provider](c)
				if err != nil {
					return "", err
				}
				return p.Now(), nil
			},
		})
		c, err := r.Start(tt.active, component.Options{})
		if err != nil {
			t.Fatalf("%v: %v", tt.active, err)
		}
		got, err := stamp.Get(t.Context(), c)
		c.Close()
		if err != nil || got != tt.want {
			t.Errorf("%v:\ngot  %q, %v\nwant %q", tt.active, got, err, tt.want)
		}
	}
}

// TestSessionFloodIsBoundedAndReported: past server.servlet.session.max-sessions
// the least recently used session ends; the first eviction is logged once,
// and the live count, the cap and the evictions are in /actuator/prometheus.
func TestSessionFloodIsBoundedAndReported(t *testing.T) {
	t.Parallel()
	s := start(t, append(everything, "--app.number.scope=session", "--server.servlet.session.max-sessions=3"), nil)
	for range 5 {
		if r := s.do(t, "GET", "/api/number/val-a", ""); r.status != 200 {
			t.Fatalf("val-a: %d %s", r.status, r.body)
		}
	}
	warning := regexp.MustCompile(`level=WARN msg="the session store is full[^"]*" max_sessions=3`)
	s.WaitForLog(t, warning)
	if n := len(warning.FindAllString(s.Stdout.String(), -1)); n != 1 {
		t.Errorf("the eviction warning was logged %d times, want once", n)
	}
	r := s.do(t, "GET", "/actuator/prometheus", "")
	for _, want := range []string{`http_sessions_active{application="greeter"} 3` + "\n", `http_sessions_max{application="greeter"} 3` + "\n",
		`http_sessions_evicted_total{application="greeter"} 2` + "\n"} {
		if !strings.Contains(r.body, want) {
			t.Errorf("/actuator/prometheus lacks %q", want)
		}
	}
}

// TestRedisSessionsAreReported: with the Redis session store, the session
// meters count the sessions this instance follows (past max-sessions it
// stops following the least recently used, which live on in Redis), and
// the Redis pool's statistics are published.
func TestRedisSessionsAreReported(t *testing.T) {
	t.Parallel()
	e := newEngines(t)
	s := start(t, append(append(everything, e.args()...), "--app.number.scope=session", "--server.servlet.session.max-sessions=3"), nil)
	for range 5 {
		if r := s.do(t, "GET", "/api/number/val-a", ""); r.status != 200 {
			t.Fatalf("val-a: %d %s", r.status, r.body)
		}
	}
	r := s.do(t, "GET", "/actuator/prometheus", "")
	for _, want := range []string{`http_sessions_active{application="greeter"} 3` + "\n", `http_sessions_max{application="greeter"} 3` + "\n",
		`http_sessions_evicted_total{application="greeter"} 2` + "\n", `redis_pool_timeouts_total{application="greeter"} 0` + "\n"} {
		if !strings.Contains(r.body, want) {
			t.Errorf("/actuator/prometheus lacks %q", want)
		}
	}
	// Each request asked Redis at least once, on a pooled connection or a
	// new one: the pool has connections, and has been used.
	for _, meter := range []string{"redis_pool_connections", "redis_pool_hits_total"} {
		m := regexp.MustCompile(`(?m)^` + meter + `\{application="greeter"\} (\d+)$`).FindStringSubmatch(r.body)
		if m == nil || m[1] == "0" {
			t.Errorf("/actuator/prometheus: %s is %v; want it above 0", meter, m)
		}
	}
}
