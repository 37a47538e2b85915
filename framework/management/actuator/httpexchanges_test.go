package actuator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/dispatch"
)

// TestExchanges records requests through a dispatcher's observer and
// reads them back: Spring's shape, newest first, at most 100, secrets
// never kept, each exchange bounded.
func TestExchanges(t *testing.T) {
	rec := NewExchanges()
	ok := dispatch.Runs(func(*dispatch.Request) error { return nil })
	routes := append(Routes(Options{Exposure: Exposure{Include: []string{HTTPExchanges}}, Exchanges: rec}),
		dispatch.Route{Method: "GET", Pattern: "/a", Handler: ok})
	h, err := dispatch.New(dispatch.Options{Observers: []func(dispatch.Observation){rec.Observe}}, routes...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ExchangesCapacity + 5 {
		req := httptest.NewRequest("GET", fmt.Sprintf("/a?i=%d", i), nil)
		req.Header.Set("Authorization", "Bearer secret")
		req.Header.Set("Cookie", "SESSION=abc")
		req.Header.Set("Proxy-Authorization", "Basic x")
		req.Header.Set("X-Api-Key", "k")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("X-Long", strings.Repeat("x", 5000))
		for j := range 50 {
			req.Header.Set(fmt.Sprintf("X-Many-%02d", j), "v")
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/actuator/httpexchanges", nil))
	body := w.Body.String()
	for _, secret := range []string{"Bearer", "SESSION", "Basic", "X-Api-Key", strings.Repeat("x", 300)} {
		if strings.Contains(body, secret) {
			t.Errorf("the record keeps %q", secret)
		}
	}
	var got exchangesDescriptor
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Exchanges) != ExchangesCapacity {
		t.Fatalf("%d exchanges, want the last %d", len(got.Exchanges), ExchangesCapacity)
	}
	newest, oldest := got.Exchanges[0], got.Exchanges[ExchangesCapacity-1]
	if newest.Request.URI != "http://example.com/a?i=104" || oldest.Request.URI != "http://example.com/a?i=5" {
		t.Errorf("newest %s, oldest %s: want i=104 first and i=5 last", newest.Request.URI, oldest.Request.URI)
	}
	if newest.Request.Method != "GET" || newest.Response.Status != http.StatusOK || !strings.HasPrefix(newest.TimeTaken, "PT") ||
		newest.Request.Headers["Accept"][0] != "application/json" || len(newest.Request.Headers) > maxKeptHeaders {
		t.Errorf("newest: %+v", newest)
	}
	if _, err := time.Parse(time.RFC3339Nano, newest.Timestamp); err != nil {
		t.Errorf("timestamp: %v", err)
	}
}
