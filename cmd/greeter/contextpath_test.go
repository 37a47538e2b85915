package main

import (
	"net/http"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestContextPath: greeter under server.servlet.context-path=/api-v1
// answers its routes there and nowhere else, and its OpenAPI document
// names the context path as its server, so that a client reading the
// document (here kin-openapi's router, as the contract checks use it)
// calls the paths under it.
func TestContextPath(t *testing.T) {
	t.Parallel()
	i := boottest.Start(t, greeter(), []string{"--server.servlet.context-path=/api-v1"}, nil)
	s := &service{Instance: i, base: i.URL + "/api-v1"}

	if r := s.do(t, "GET", "/api/hello", ""); r.status != http.StatusOK || r.body != `{"text":"Hello World!"}` {
		t.Errorf("GET /api-v1/api/hello: %d %s, want 200 and the greeting", r.status, r.body)
	}
	if r := s.do(t, "GET", "/actuator/health", ""); r.status != http.StatusOK {
		t.Errorf("GET /api-v1/actuator/health: %d %s, want 200", r.status, r.body)
	}
	if r := boottest.Send(t, nil, "GET", i.URL+"/api/hello", ""); r.Status != http.StatusNotFound {
		t.Errorf("GET /api/hello outside the context path: %d %s, want 404", r.Status, r.Body)
	}

	// The document's server, resolved against the document's URL as a
	// client does, puts its paths under the context path.
	c := contractOf(s)
	if c.err != nil {
		t.Fatal(c.err)
	}
	req, err := http.NewRequest("GET", i.URL+"/api-v1/api/hello", nil)
	if err != nil {
		t.Fatal(err)
	}
	if route, _, err := c.router.FindRoute(req); err != nil || route.Path != "/api/hello" {
		t.Errorf("the document does not place /api/hello under the context path: %v", err)
	}
}
