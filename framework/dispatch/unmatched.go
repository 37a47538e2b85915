package dispatch

import (
	"net/http"
	"strings"
)

// muxWriter is what the ServeMux writes to while it routes a request. Each
// route group is registered on the ServeMux as a handler that writes
// nothing (the dispatcher serves the group once the ServeMux returns), so
// whatever arrives here is the ServeMux's own answer for a request that no
// group takes. It goes to the response's header map, so that Allow and
// Location are kept; its status is noted and its plain-text body dropped,
// and answerUnmatched then answers in the dispatcher's own way.
type muxWriter struct {
	w     http.ResponseWriter // the server's
	code  int                 // the ServeMux's status; 0 when a group took the request
	group *group              // the group that took the request
}

// Header is the response's header map. It is not fetched before the
// ServeMux asks for it: net/http copies the map of a response whose
// Header was called, once its status is written.
func (m *muxWriter) Header() http.Header { return m.w.Header() }

func (m *muxWriter) WriteHeader(code int) {
	if m.code == 0 {
		m.code = code
	}
}

func (m *muxWriter) Write(p []byte) (int, error) {
	m.WriteHeader(http.StatusOK)
	return len(p), nil
}

// answerUnmatched answers a request that the ServeMux answered with code:
//
//	404                     a problem document
//	405                     a problem document, keeping Allow
//	405 to OPTIONS          200 with Allow, OPTIONS included: the path exists
//	404 to CONNECT host:port  405 with an empty Allow: the target is an
//	                        authority, not a path, and the service is no
//	                        proxy, so no method could reach it
//	redirect (301/307/308)  kept, without its little HTML page; the ServeMux
//	                        sends an unclean path (/a//b, /a/../b) to its
//	                        clean form
//
// Anything else (the ServeMux's 400 for "OPTIONS *") keeps its status.
func (d *Dispatcher) answerUnmatched(ex *exchange, r *http.Request, code int) {
	h := ex.Header()
	h.Del("Content-Type") // the ServeMux's, for its plain text or HTML
	if code == http.StatusNotFound && r.Method == http.MethodConnect && r.URL.Path == "" {
		// The ServeMux matches CONNECT by r.URL.Path, empty for the
		// authority form, so it answers 404 "No endpoint CONNECT ." The
		// method, not the target, is what the service does not serve.
		// RFC 9110 asks a 405 for an Allow; empty says no method is
		// allowed on this target (§10.2.1).
		d.dropMuxNosniff(h)
		h["Allow"] = []string{""}
		writeProblem(ex, r, http.StatusMethodNotAllowed, "CONNECT is not supported.", ex.requestIDFor(r, d.ids), d.traceID(r))
		return
	}
	switch code {
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		d.dropMuxNosniff(h)
		if code == http.StatusMethodNotAllowed && r.Method == http.MethodOptions {
			h.Set("Allow", h.Get("Allow")+", OPTIONS")
			h.Set("Content-Length", "0")
			ex.WriteHeader(http.StatusOK)
			return
		}
		detail := "No endpoint " + Clip(r.Method) + " " + Clip(escapedPath(r)) + "."
		if code == http.StatusMethodNotAllowed {
			detail = "Method '" + Clip(r.Method) + "' is not supported; this path allows " + h.Get("Allow") + "."
		}
		writeProblem(ex, r, code, detail, ex.requestIDFor(r, d.ids), d.traceID(r))
	case http.StatusMovedPermanently, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		// The ServeMux wrote the path it saw, without the context path.
		if loc := h.Get("Location"); strings.HasPrefix(loc, "/") {
			h.Set("Location", ContextPath(r)+loc)
		}
		h.Set("Content-Length", "0")
		ex.WriteHeader(code)
	default:
		ex.WriteHeader(code)
	}
}

// dropMuxNosniff drops the X-Content-Type-Options that the ServeMux's
// http.Error sets for its plain text, unless the security guard had set
// it before, with Spring Security's other default headers, on every
// answer: the problem document that replaces the ServeMux's text keeps
// them all, as Spring Security's do.
func (d *Dispatcher) dropMuxNosniff(h http.Header) {
	if d.guard == nil {
		h.Del("X-Content-Type-Options")
	}
}
