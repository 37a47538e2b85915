package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/bench/peers/internal/peer"
	"github.com/springport/greeter/bench/peers/internal/peertest"
)

func TestEndpoints(t *testing.T) { peertest.Check(t, peertest.HTTP(handler)) }

func TestNegotiate(t *testing.T) {
	tests := []struct {
		accept string
		want   string // "" for none acceptable
	}{
		{"", "application/json"},
		{"*/*", "application/json"},
		{"application/*", "application/json"},
		{"application/xml", "application/xml"},
		{"text/*", "text/xml"},
		{"TEXT/XML", "text/xml"},
		{"application/xml;q=0.5, application/json", "application/json"},
		{"application/json;q=0.5, application/xml", "application/xml"},
		{"application/xml, application/json", "application/xml"},
		{"text/html, */*;q=0.1", "application/json"},
		{"*/*;q=0.9, application/xml;q=0.9", "application/xml"}, // the more specific of equal q
		{"application/json;q=0", ""},
		{"application/json;q=x", ""},
		{"text/plain", ""},
		{"image/png, text/html", ""},
	}
	for _, tt := range tests {
		got, ok := negotiate(tt.accept, objectTypes)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("negotiate(%q) = %q, %v; want %q", tt.accept, got, ok, tt.want)
		}
	}
	if got, ok := negotiate("text/*", textTypes); !ok || got != "text/plain" {
		t.Errorf("negotiate(text/*, text/plain) = %q, %v", got, ok)
	}
}

// TestWindowMax checks the maximum's window against Micrometer's
// TimeWindowMax: a record is read for two minutes (and up to one rotation
// of 40 seconds more), then forgotten, and a later, smaller one takes its
// place.
func TestWindowMax(t *testing.T) {
	var w windowMax
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w.record(0.5, t0)
	w.record(0.2, t0.Add(10*time.Second))
	for _, tt := range []struct {
		at   time.Duration
		want float64
	}{
		{0, 0.5},
		{39 * time.Second, 0.5},
		{80 * time.Second, 0.5},
		{119 * time.Second, 0.5},
		{120 * time.Second, 0}, // all three buckets rotated since the records
	} {
		if got := w.poll(t0.Add(tt.at)); got != tt.want {
			t.Errorf("at %v: max %v, want %v", tt.at, got, tt.want)
		}
	}
	w.record(0.1, t0.Add(130*time.Second))
	if got := w.poll(t0.Add(131 * time.Second)); got != 0.1 {
		t.Errorf("after a new record: max %v, want 0.1", got)
	}
	if got := w.poll(t0.Add(10 * time.Minute)); got != 0 {
		t.Errorf("long after: max %v, want 0", got)
	}
}

// TestMetrics checks that each request is timed under its route's pattern
// with the service's labels, in a summary and its _max gauge.
func TestMetrics(t *testing.T) {
	h := handler(new(peer.Messages), 7)
	for _, target := range []string{"/api/hello", "/api/hello", "/api/hello/x", "/nowhere"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", target, nil))
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/actuator/prometheus", nil))
	body := w.Body.String()
	for _, want := range []string{
		"# TYPE http_server_requests_seconds summary\n",
		"# TYPE http_server_requests_seconds_max gauge\n",
		`http_server_requests_seconds_count{application="greeter",error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/api/hello"} 2` + "\n",
		`http_server_requests_seconds_count{application="greeter",error="NumError",exception="NumError",method="GET",outcome="CLIENT_ERROR",status="400",uri="/api/hello/{id}"} 1` + "\n",
		`http_server_requests_seconds_count{application="greeter",error="none",exception="none",method="GET",outcome="CLIENT_ERROR",status="404",uri="NOT_FOUND"} 1` + "\n",
		`http_server_requests_seconds_max{application="greeter",error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/api/hello"} `,
		`go_goroutines{application="greeter"} `,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the exposition lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`(?m)^http_server_requests_seconds_max\{[^}]*uri="/api/hello"\} (\S+)$`).FindStringSubmatch(body); m == nil || m[1] == "0" {
		t.Errorf("the _max of /api/hello is missing or zero: %v", m)
	}
	if regexp.MustCompile(`(?m)^http_server_requests_seconds\{`).MatchString(body) {
		t.Error("the summary has quantiles; the service's has count and sum only")
	}
}

// TestRecoverer checks that a handler's panic is a 500, timed, and that
// the request ID is in the context by then.
func TestRecoverer(t *testing.T) {
	m := newMetrics()
	h := routes(new(peer.Messages), 7, m)
	h.(interface {
		Get(string, http.HandlerFunc)
	}).Get("/panic", func(http.ResponseWriter, *http.Request) { panic("on purpose") })
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/panic", nil))
	if w.Code != http.StatusInternalServerError {
		t.Fatalf("a panic: %d, want 500", w.Code)
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/actuator/prometheus", nil))
	b, _ := io.ReadAll(w.Body)
	if !strings.Contains(string(b), `outcome="SERVER_ERROR",status="500",uri="/panic"} 1`) {
		t.Errorf("the panic's 500 was not timed:\n%s", b)
	}
}
