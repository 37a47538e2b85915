package actuator

import (
	"fmt"
	"net/http"
	"testing"

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
	if got, want := patterns(Exposure{Include: []string{"health"}}), "[/actuator/health /actuator/health/liveness /actuator/health/readiness /actuator]"; got != want {
		t.Errorf("health only:\ngot  %s\nwant %s", got, want)
	}
	if got, want := patterns(Exposure{Include: []string{"prometheus", "info"}}), "[/actuator/info /actuator/prometheus /actuator]"; got != want {
		t.Errorf("prometheus and info:\ngot  %s\nwant %s", got, want)
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
	m, _ := handleMappings(&catalog)(nil)
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
