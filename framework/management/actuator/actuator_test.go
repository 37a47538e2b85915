package actuator

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"

	"github.com/springport/greeter/framework/dispatch"
)

func TestExposure(t *testing.T) {
	tests := []struct {
		e    Exposure
		id   string
		want bool
	}{
		{Exposure{Include: []string{"health"}}, Health, true},
		{Exposure{Include: []string{"health"}}, Env, false},
		{Exposure{Include: []string{"*"}}, Beans, true},
		{Exposure{Include: []string{"*"}, Exclude: []string{"env"}}, Env, false},
		{Exposure{Include: []string{"env"}, Exclude: []string{"*"}}, Env, false},
		{Exposure{}, Health, false},
	}
	for _, tt := range tests {
		if got := tt.e.Exposes(tt.id); got != tt.want {
			t.Errorf("%+v exposes %q:\ngot  %v\nwant %v", tt.e, tt.id, got, tt.want)
		}
	}
}

func TestRoutesFollowExposure(t *testing.T) {
	patterns := func(e Exposure) string {
		var ps []string
		for _, r := range Routes(Options{Exposure: e, Prometheus: http.NotFoundHandler()}) {
			ps = append(ps, r.Pattern)
		}
		return fmt.Sprint(ps)
	}
	if got, want := patterns(Exposure{Include: []string{"health"}}), "[/actuator/health /actuator/health/{path...} /actuator]"; got != want {
		t.Errorf("health only:\ngot  %s\nwant %s", got, want)
	}
	if got, want := patterns(Exposure{Include: []string{"prometheus", "info"}}), "[/actuator/info /actuator/prometheus /actuator]"; got != want {
		t.Errorf("prometheus and info:\ngot  %s\nwant %s", got, want)
	}
	// The diagnostics and shutdown are exposed only when asked for by
	// name or by *, and the heap dump and shutdown only when their access
	// allows it too (none by default).
	if got, want := patterns(Exposure{Include: []string{"*"}, Exclude: []string{"health", "info", "env", "configprops", "beans", "mappings", "prometheus"}}),
		"[/actuator/threaddump /actuator/threaddump /actuator/cpuprofile /actuator]"; got != want {
		t.Errorf("diagnostics:\ngot  %s\nwant %s", got, want)
	}
}

func TestShutdownNeedsAccessAndExposure(t *testing.T) {
	begun := make(chan struct{}, 1)
	begin := func() { begun <- struct{}{} }
	for _, tt := range []struct {
		opts Options
		want int
	}{
		{Options{Exposure: Exposure{Include: []string{"*"}}, Shutdown: begin}, 404},
		{Options{Exposure: Exposure{Include: []string{"*"}}, Shutdown: begin, Access: map[string]string{Shutdown: "read-only"}}, 404},
		{Options{Exposure: Exposure{Include: []string{"health"}}, Shutdown: begin, Access: map[string]string{Shutdown: "unrestricted"}}, 404},
		{Options{Exposure: Exposure{Include: []string{"shutdown"}}, Shutdown: begin, Access: map[string]string{Shutdown: "unrestricted"}}, 200},
	} {
		h, err := dispatch.New(dispatch.Options{}, Routes(tt.opts)...)
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/actuator/shutdown", nil))
		if rec.Code != tt.want {
			t.Errorf("access %q, exposure %v: %d, want %d", tt.opts.Access[Shutdown], tt.opts.Exposure.Include, rec.Code, tt.want)
		}
		if tt.want == 200 {
			if body := rec.Body.String(); body != `{"message":"Shutting down, bye..."}` {
				t.Errorf("shutdown answered %s", body)
			}
			<-begun
		}
	}
}

// TestMediaTypes: every JSON endpoint answers in Spring's actuator v3
// type by default, and in v2 or plain JSON when asked.
func TestMediaTypes(t *testing.T) {
	var catalog dispatch.Catalog
	routes := Routes(Options{Exposure: Exposure{Include: []string{"*"}}, Env: emptyEnv(t), Mappings: &catalog,
		Components: func() []component.Info { return nil }, Exchanges: NewExchanges(), Shutdown: func() {}, Access: map[string]string{Shutdown: "unrestricted"}})
	h, err := dispatch.New(dispatch.Options{Catalog: &catalog}, routes...)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/actuator", "/actuator/health", "/actuator/health/liveness", "/actuator/info", "/actuator/env", "/actuator/beans",
		"/actuator/mappings", "/actuator/threaddump", "/actuator/httpexchanges", "POST /actuator/shutdown"} {
		method := "GET"
		if m, p, ok := strings.Cut(path, " "); ok {
			method, path = m, p
		}
		for accept, want := range map[string]string{
			"":                 "application/vnd.spring-boot.actuator.v3+json",
			"*/*":              "application/vnd.spring-boot.actuator.v3+json",
			"application/json": "application/json",
			"application/vnd.spring-boot.actuator.v3+json": "application/vnd.spring-boot.actuator.v3+json",
			"application/vnd.spring-boot.actuator.v2+json": "application/vnd.spring-boot.actuator.v2+json",
		} {
			req := httptest.NewRequest(method, path, nil)
			if accept != "" {
				req.Header.Set("Accept", accept)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != 200 || rec.Header().Get("Content-Type") != want {
				t.Errorf("%s %s with Accept %q: %d %q, want 200 %q", method, path, accept, rec.Code, rec.Header().Get("Content-Type"), want)
			}
		}
	}
}

// TestBasePath: the endpoints move with the base path; at the root
// there is no index.
func TestBasePath(t *testing.T) {
	for _, tt := range []struct{ base, want string }{
		{"/manage", "[/manage/health /manage/health/{path...} /manage]"},
		{"/", "[/health /health/{path...}]"},
		{"", "[/actuator/health /actuator/health/{path...} /actuator]"},
	} {
		var ps []string
		for _, r := range Routes(Options{Exposure: Exposure{Include: []string{"health"}}, BasePath: tt.base}) {
			ps = append(ps, r.Pattern)
		}
		if got := fmt.Sprint(ps); got != tt.want {
			t.Errorf("base path %q:\ngot  %s\nwant %s", tt.base, got, tt.want)
		}
	}
}

func TestMappingParams(t *testing.T) {
	ok := dispatch.Runs(func(*dispatch.Request) error { return nil })
	var catalog dispatch.Catalog
	_, err := dispatch.New(dispatch.Options{Catalog: &catalog},
		dispatch.Route{Method: "GET", Pattern: "/a", Params: []string{"p", "!q", "r=v", "s!=w"}, Handler: ok})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := handleMappings("application", &catalog)(nil)
	got := m.Contexts["application"].Mappings.DispatcherServlets["dispatcherServlet"][0]
	want := []paramCondition{
		{Name: "p"},
		{Name: "q", Negated: true},
		{Name: "r", Value: "v"},
		{Name: "s", Value: "w", Negated: true},
	}
	if fmt.Sprint(got.Details.RequestMappingConditions.Params) != fmt.Sprint(want) {
		t.Errorf("params:\ngot  %+v\nwant %+v", got.Details.RequestMappingConditions.Params, want)
	}
	if wantPred := "{GET [/a], params [p && !q && r=v && s!=w]}"; got.Predicate != wantPred {
		t.Errorf("predicate:\ngot  %s\nwant %s", got.Predicate, wantPred)
	}
}

// emptyEnv is an environment with no settings.
func emptyEnv(t *testing.T) *config.Environment {
	t.Helper()
	env, err := config.Load(config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// TestReportsNameTheContext: beans, configprops and mappings report one
// application context, named after the service as Spring names it after
// spring.application.name ("application" when the name is unset), the
// same in the three.
func TestReportsNameTheContext(t *testing.T) {
	for _, tt := range []struct{ context, want string }{{"shop", "shop"}, {"", "application"}} {
		var catalog dispatch.Catalog
		opts := Options{
			Exposure:   Exposure{Include: []string{Beans, ConfigProps, Mappings}},
			Context:    tt.context,
			Env:        emptyEnv(t),
			Components: func() []component.Info { return nil },
			Mappings:   &catalog,
		}
		h, err := dispatch.New(dispatch.Options{Catalog: &catalog}, Routes(opts)...)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/actuator/beans", "/actuator/configprops", "/actuator/mappings"} {
			doc, _ := getJSON(t, h, path).(map[string]any)
			contexts, _ := doc["contexts"].(map[string]any)
			if _, ok := contexts[tt.want]; !ok || len(contexts) != 1 {
				t.Errorf("Context %q: GET %s: contexts %v, want one named %q", tt.context, path, contexts, tt.want)
			}
		}
	}
}

// TestPatternsAreSprings: the endpoints' paths below their own are
// patterns with Spring's variable names, since a route's pattern is the
// uri tag of its requests' metrics (/actuator/env/{toMatch}, not
// /actuator/env/{name}), and the index's templated links name them so.
func TestPatternsAreSprings(t *testing.T) {
	var patterns []string
	for _, r := range Routes(Options{Exposure: Exposure{Include: []string{"*"}}, Metrics: noMeters{}}) {
		patterns = append(patterns, r.Pattern)
	}
	for _, want := range []string{"/actuator/env/{toMatch}", "/actuator/configprops/{prefix}", "/actuator/metrics/{requiredMetricName}"} {
		if !slices.Contains(patterns, want) {
			t.Errorf("no route %s among %v", want, patterns)
		}
	}
}
