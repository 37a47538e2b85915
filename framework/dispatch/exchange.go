package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// exchange is the dispatcher's state for one request, pooled so that the
// hot path allocates nothing of its own. It is the ResponseWriter that
// everything the dispatcher answers goes through, so that it can tell the
// observers what was written.
type exchange struct {
	state // of this request: zeroed by release

	// Kept from request to request by release:
	in     bytes.Buffer  // the request body
	out    bytes.Buffer  // the response body
	enc    *json.Encoder // writes into out; kept with it
	ranges [8]mediaType  // backing store for the parsed Accept header
}

// state is what an exchange knows of one request. Everything of a
// request's that is not a reusable buffer belongs here, so that release
// forgets it with one assignment.
type state struct {
	w           http.ResponseWriter // the server's
	status      int
	written     int64
	wroteHeader bool
	began       time.Time // when observers need a duration
	requestID   string
	pattern     string // the matched group's pattern; empty when none matched
	route       *route // the chosen route, for log lines
	err         error  // what the answer was made from, when it is a failure

	mux       muxWriter // what the ServeMux writes while it routes
	req       Request
	call      call
	limit     io.LimitedReader // bounds a body of declared length
	accept    []mediaType      // the parsed Accept header, in ranges
	parsed    bool             // accept holds the parsed Accept header
	rangesSet bool             // ranges holds a parsed Accept header's strings
	// guarded is the context Options.Guard gave the request (its
	// principal), for the observers; nil when it gave none.
	guarded context.Context
}

// release forgets the request and drops buffers that a large request grew,
// so that the pool does not hold on to them. It zeroes ranges only when a
// request filled it, rather than clearing its 512 bytes every time.
func (ex *exchange) release() {
	const keep = 64 << 10
	inputs := ex.req.inputs
	clear(inputs) // drop the request's strings
	if ex.rangesSet {
		ex.ranges = [len(ex.ranges)]mediaType{}
	}
	ex.state = state{}
	ex.req.inputs = inputs[:0]
	if ex.in.Cap() <= keep {
		ex.in.Reset()
	} else {
		ex.in = bytes.Buffer{}
	}
	if ex.out.Cap() <= keep {
		ex.out.Reset()
	} else {
		ex.out, ex.enc = bytes.Buffer{}, nil
	}
}

// jsonEncoder returns the exchange's encoder into out, made once per
// pooled exchange rather than once per response.
func (ex *exchange) jsonEncoder() *json.Encoder {
	if ex.enc == nil {
		ex.enc = newJSONEncoder(&ex.out)
	}
	return ex.enc
}

// setRequestID gives the answer the request ID id.
func (ex *exchange) setRequestID(id string) {
	ex.requestID = id
	ex.w.Header()[RequestIDHeader] = []string{id}
}

// requestIDFor returns the request's ID, making one with ids when it has
// none yet, for a problem document and the log lines about it.
func (ex *exchange) requestIDFor(r *http.Request, ids *requestIDs) string {
	if ex.requestID == "" {
		if ex.wroteHeader {
			// Too late to tell the client; the log lines and the
			// observers still share one ID for the request.
			ex.requestID = ids.forRequest(r)
		} else {
			ex.setRequestID(ids.forRequest(r))
		}
	}
	return ex.requestID
}

func (ex *exchange) routeName() string {
	if ex.route == nil {
		return ""
	}
	return ex.route.name
}

// acceptRanges parses the Accept header once per request.
func (ex *exchange) acceptRanges(r *http.Request) ([]mediaType, error) {
	if ex.parsed {
		return ex.accept, nil
	}
	var err error
	var h string
	switch vs := r.Header["Accept"]; len(vs) { // canonical key: no Get
	case 0:
	case 1:
		h = vs[0]
	default:
		h = strings.Join(vs, ", ") // several field lines make one list
	}
	switch h {
	case "", "*/*":
		ex.accept = nil
	default:
		ex.rangesSet = true
		ex.accept, err = parseAccept(h, ex.ranges[:0])
	}
	ex.parsed = err == nil
	return ex.accept, err
}

// Header returns the response's header map.
func (ex *exchange) Header() http.Header { return ex.w.Header() }

// WriteHeader sends the status line and headers, once.
func (ex *exchange) WriteHeader(code int) {
	if ex.wroteHeader {
		return
	}
	ex.status, ex.wroteHeader = code, true
	ex.w.WriteHeader(code)
}

// Write sends body bytes, counting them for the observers.
func (ex *exchange) Write(p []byte) (int, error) {
	if !ex.wroteHeader {
		ex.WriteHeader(http.StatusOK)
	}
	n, err := ex.w.Write(p)
	ex.written += int64(n)
	return n, err
}

// Flush sends buffered data, when the server's writer can: a Plain
// handler may stream.
func (ex *exchange) Flush() {
	if f, ok := ex.w.(http.Flusher); ok {
		if !ex.wroteHeader {
			ex.WriteHeader(http.StatusOK)
		}
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the server's writer.
func (ex *exchange) Unwrap() http.ResponseWriter { return ex.w }
