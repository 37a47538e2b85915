package dispatch

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// Observation is what the dispatcher reports about each request once it
// has been answered, for metrics and access logs.
type Observation struct {
	Method string
	Path   string // the raw path, escaped as sent
	// Route is the matched route's pattern, or for a request no route took
	// one of the fixed labels NotFound, Redirection or Unknown, so that a
	// scan of random paths adds no new values.
	Route     string
	Status    int
	Bytes     int64 // response body bytes written
	Duration  time.Duration
	RequestID string
}

// Labels for requests that no route took, as Spring's metrics name them.
const (
	NotFound    = "NOT_FOUND"
	Redirection = "REDIRECTION"
	Unknown     = "UNKNOWN"
)

// RequestIDHeader carries the request ID in both directions.
const RequestIDHeader = "X-Request-Id"

// requestIDs makes request IDs: a random prefix drawn once per process and
// a counter, unique without a random draw per request.
type requestIDs struct {
	prefix string
	next   atomic.Uint64
}

func newRequestIDs() *requestIDs {
	var b [6]byte
	rand.Read(b[:])
	return &requestIDs{prefix: hex.EncodeToString(b[:]) + "-"}
}

// forRequest returns the client's X-Request-Id when it is sane (1 to 64
// characters of letters, digits and ._:-), and a new ID otherwise.
func (ids *requestIDs) forRequest(r *http.Request) string {
	if v := r.Header[RequestIDHeader]; len(v) == 1 && saneRequestID(v[0]) {
		return v[0]
	}
	var buf [32]byte
	b := append(buf[:0], ids.prefix...)
	return string(strconv.AppendUint(b, ids.next.Add(1), 36))
}

func saneRequestID(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

// observe reports the finished exchange to the observers.
func (d *Dispatcher) observe(ex *exchange, r *http.Request, began time.Time) {
	route := ex.pattern
	status := ex.status
	if status == 0 {
		status = http.StatusOK
	}
	if route == "" {
		switch {
		case status == http.StatusNotFound:
			route = NotFound
		case status >= 300 && status < 400:
			route = Redirection
		default:
			route = Unknown
		}
	}
	o := Observation{Method: r.Method, Path: r.URL.EscapedPath(), Route: route, Status: status,
		Bytes: ex.written, Duration: time.Since(began), RequestID: ex.requestID}
	for _, f := range d.observers {
		f(o)
	}
}
