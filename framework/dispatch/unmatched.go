package dispatch

import "net/http"

// muxWriter is what the ServeMux writes to while it routes a request. Each
// route group is registered on the ServeMux as a handler that writes
// nothing (the dispatcher serves the group once the ServeMux returns), so
// whatever arrives here is the ServeMux's own answer for a request that no
// group takes. Those answers are plain text; they become the dispatcher's:
//
//	404                     a problem document
//	405                     a problem document, keeping Allow
//	405 to OPTIONS          200 with Allow, OPTIONS included: the path exists
//	redirect (301/307/308)  kept, without its little HTML page; the ServeMux
//	                        sends an unclean path (/a//b, /a/../b) to its
//	                        clean form
//
// Anything else (the ServeMux's 400 for "OPTIONS *") passes through.
type muxWriter struct {
	ex       *exchange
	r        *http.Request
	ids      *requestIDs
	answered bool // the ServeMux answered: no group took the request
	swallow  bool // its body is replaced or dropped
}

func (m *muxWriter) Header() http.Header { return m.ex.Header() }

func (m *muxWriter) WriteHeader(code int) {
	if m.answered {
		return
	}
	m.answered = true
	h := m.ex.Header()
	switch code {
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		m.swallow = true
		h.Del("X-Content-Type-Options")
		h.Del("Content-Type")
		if code == http.StatusMethodNotAllowed && m.r.Method == http.MethodOptions {
			h.Set("Allow", h.Get("Allow")+", OPTIONS")
			h.Set("Content-Length", "0")
			m.ex.WriteHeader(http.StatusOK)
			return
		}
		detail := "No endpoint " + Clip(m.r.Method) + " " + Clip(m.r.URL.EscapedPath()) + "."
		if code == http.StatusMethodNotAllowed {
			detail = "Method '" + Clip(m.r.Method) + "' is not supported; this path allows " + h.Get("Allow") + "."
		}
		writeProblem(m.ex, m.r, code, detail, m.ex.requestIDFor(m.r, m.ids))
	case http.StatusMovedPermanently, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		m.swallow = true
		h.Del("Content-Type")
		h.Set("Content-Length", "0")
		m.ex.WriteHeader(code)
	default:
		m.ex.WriteHeader(code)
	}
}

func (m *muxWriter) Write(p []byte) (int, error) {
	if !m.answered {
		m.WriteHeader(http.StatusOK)
	}
	if m.swallow {
		return len(p), nil
	}
	return m.ex.Write(p)
}
