package conformance_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestSpringSmoke: each build of the Spring reference application starts
// with no database, no Redis and no security, and answers the greeting,
// /actuator/health and /v3/api-docs.
func TestSpringSmoke(t *testing.T) {
	for _, flavour := range springFlavours {
		t.Run(flavour, func(t *testing.T) {
			t.Parallel()
			app := startSpring(t, flavour)
			t.Logf("%s listened %v after exec", flavour, app.Started.Round(100*time.Millisecond))

			resp, body := app.get(t, "/api/hello")
			var msg struct {
				Text *string `json:"text"`
			}
			if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Errorf("GET /api/hello: %s, Content-Type %q, want 200 and JSON", resp.Status, resp.Header.Get("Content-Type"))
			} else if err := json.Unmarshal(body, &msg); err != nil || msg.Text == nil || *msg.Text != "Hello World!" {
				t.Errorf("GET /api/hello: body %s, want {\"text\":\"Hello World!\"} (%v)", body, err)
			}

			resp, body = app.get(t, "/actuator/health")
			var health struct {
				Status string `json:"status"`
			}
			if resp.StatusCode != http.StatusOK {
				t.Errorf("GET /actuator/health: %s, body %s", resp.Status, body)
			} else if err := json.Unmarshal(body, &health); err != nil || health.Status != "UP" {
				t.Errorf("GET /actuator/health: body %s, want status UP (%v)", body, err)
			}

			resp, body = app.get(t, "/v3/api-docs")
			var doc struct {
				OpenAPI string                     `json:"openapi"`
				Paths   map[string]json.RawMessage `json:"paths"`
			}
			if resp.StatusCode != http.StatusOK {
				t.Errorf("GET /v3/api-docs: %s", resp.Status)
			} else if err := json.Unmarshal(body, &doc); err != nil || !strings.HasPrefix(doc.OpenAPI, "3.") {
				t.Errorf("GET /v3/api-docs: not an OpenAPI 3 document (%v): %.200s", err, body)
			} else {
				for _, p := range []string{"/api/hello", "/api/hello/{id}", "/api/messages", "/api/messages/{index}", "/api/messages/search", "/api/number/val-a", "/api/number/val-b"} {
					if _, ok := doc.Paths[p]; !ok {
						t.Errorf("GET /v3/api-docs: no path %s", p)
					}
				}
			}
		})
	}
}
