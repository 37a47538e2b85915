package dispatch

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestDeclaredLengthIsNotTrusted gives a body longer than its declared
// length, as a middleware that replaces the body can: the limit holds.
func TestDeclaredLengthIsNotTrusted(t *testing.T) {
	t.Parallel()
	d := newDispatcher(t, Options{MaxBodyBytes: 100}, testRoutes()...)
	r := httptest.NewRequest("POST", "/echo", strings.NewReader(`{"text":"`+strings.Repeat("a", 10_000)+`"}`))
	r.Header.Set("Content-Type", "application/json")
	r.ContentLength = 10
	w := httptest.NewRecorder()
	d.ServeHTTP(w, r)
	checkProblem(t, "10 KB declared as 10 bytes", w, http.StatusRequestEntityTooLarge, "/echo", "Request body is larger than the limit of 100 bytes.")
}
