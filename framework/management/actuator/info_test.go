package actuator

import (
	"net/http/httptest"
	"runtime/debug"
	"testing"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// TestInfoShowsTheInfoSettings: with management.info.env.enabled,
// /actuator/info shows the info.* settings nested at their dots, resolved
// and unmasked, beside the build section, as Spring's
// EnvironmentInfoContributor does; without it, none of them.
func TestInfoShowsTheInfoSettings(t *testing.T) {
	env, err := config.Load(config.Options{Args: []string{"--info.app.name=shop", "--info.app.version=${app.version}",
		"--app.version=1.2", "--info.team=payments", "--management.info.env.enabled=true"}})
	if err != nil {
		t.Fatal(err)
	}
	build := &debug.BuildInfo{Main: debug.Module{Path: "example.com/shop", Version: "v1.2.0"}, GoVersion: "go1.26.8"}
	for _, tt := range []struct {
		infoEnv bool
		want    string
	}{
		{true, `{"app":{"name":"shop","version":"1.2"},"build":{"name":"example.com/shop","version":"v1.2.0","go":"go1.26.8"},"team":"payments"}`},
		{false, `{"build":{"name":"example.com/shop","version":"v1.2.0","go":"go1.26.8"}}`},
	} {
		h, err := dispatch.New(dispatch.Options{}, Routes(Options{Exposure: Exposure{Include: []string{Info}}, Env: env, InfoEnv: tt.infoEnv, Build: build})...)
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/actuator/info", nil))
		if rec.Code != 200 || rec.Body.String() != tt.want {
			t.Errorf("InfoEnv %v: %d %s\nwant %s", tt.infoEnv, rec.Code, rec.Body, tt.want)
		}
	}
}
