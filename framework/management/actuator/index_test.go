package actuator

import (
	"net/http/httptest"
	"testing"

	"github.com/springport/greeter/framework/dispatch"
)

// TestIndex checks the index against Spring's: a link to itself and to
// each exposed endpoint, the templated links, absolute from the Host.
func TestIndex(t *testing.T) {
	h, err := dispatch.New(dispatch.Options{}, Routes(Options{Exposure: Exposure{Include: []string{"health", "env", "threaddump"}}, BasePath: "/manage"})...)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/manage", nil)
	req.Host = "example.com:8081"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	want := `{"_links":{` +
		`"env":{"href":"http://example.com:8081/manage/env","templated":false},` +
		`"env-toMatch":{"href":"http://example.com:8081/manage/env/{toMatch}","templated":true},` +
		`"health":{"href":"http://example.com:8081/manage/health","templated":false},` +
		`"health-path":{"href":"http://example.com:8081/manage/health/{*path}","templated":true},` +
		`"self":{"href":"http://example.com:8081/manage","templated":false},` +
		`"threaddump":{"href":"http://example.com:8081/manage/threaddump","templated":false}}}`
	if rec.Code != 200 || rec.Body.String() != want {
		t.Errorf("index: %d %s\nwant %s", rec.Code, rec.Body, want)
	}
}
