package dispatch

import (
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
)

// smallBody is the largest body net/http sizes by itself: it sets
// Content-Length when the handler returns before writing more than its
// chunking buffer holds (2048 bytes).
const smallBody = 2048

// execute runs the chosen route: converts its inputs, reads its body, calls
// its handler and writes the result in the negotiated representation with
// the route's success status. A Plain route's handler does all of that
// itself.
func (d *Dispatcher) execute(ex *exchange, r *http.Request, ch choice) {
	rt := ch.route
	if rt.plain != nil {
		if rt.cors != nil {
			ex.Header()["Vary"] = rt.cors.vary
		} else {
			delete(ex.Header(), "Vary") // a Plain handler negotiates, and says so, itself
		}
		rt.plain.ServeHTTP(ex, r)
		return
	}
	req := &ex.req
	req.Request, req.route, req.inputs = r, rt, req.inputs[:0]
	var faults []*paramFault // every parameter's, reported at once
	for i, in := range rt.inputs {
		var v inputValue
		var err error
		if in.page != nil {
			v, err = rt.pagers[i].read(r)
		} else {
			v, err = in.convert(r)
		}
		if err != nil {
			if faults, err = addFault(faults, err); err != nil {
				d.fail(ex, r, err)
				return
			}
		}
		req.inputs = append(req.inputs, v)
	}
	if faults != nil && rt.checks == nil { // no body's violations to add
		d.fail(ex, r, answerFaults(faults, nil))
		return
	}
	c := &ex.call
	*c = call{req: req, buf: &ex.out, json: ex.jsonEncoder(), root: rt.root, statusCoder: rt.statusCoder,
		located: rt.located, ex: ex, okStatus: rt.status, faults: faults}
	req.call = c
	if ch.out >= 0 {
		c.out = rt.produces[ch.out]
		if c.out.contentType == "" { // a pattern: answer in the client's own type
			ct := ch.concrete.String()
			if c.out.format == FormatXML {
				ct += ";charset=UTF-8"
			}
			c.out.contentType, c.out.contentTypeHeader = ct, []string{ct}
		}
	}
	if rt.body != nil {
		if err := checkContentEncoding(ex, r); err != nil {
			d.fail(ex, r, c.orFaults(err))
			return
		}
		body, err := readAll(ex, r, d.maxBody)
		if err != nil {
			d.fail(ex, r, c.orFaults(err))
			return
		}
		c.body, c.in = body, ch.in
	}
	if err := rt.run(c); err != nil {
		d.fail(ex, r, err)
		return
	}
	if !c.wrote {
		// No body, but the headers the handler set all the same (a
		// Location, an ETag), as on an answer with one. Only when it set
		// some: net/http copies the header map at WriteHeader once the
		// handler has asked for it, an allocation (two calls into
		// mallocgc) that a bare 201 need not pay.
		if len(c.header) > 0 {
			h := ex.Header()
			for k, v := range c.header {
				h[k] = v
			}
		}
		ex.WriteHeader(rt.status)
		return
	}
	if !ex.wroteHeader { // a Stream that flushed has sent its head
		c.head(ex.out.Len())
	}
	ex.Write(ex.out.Bytes())
}

// readAll reads the whole request body into the exchange, refusing one
// over max with 413: before reading it when its length is declared, and as
// soon as it passes the limit otherwise.
func readAll(ex *exchange, r *http.Request, max int64) ([]byte, error) {
	if r.ContentLength > max {
		return nil, bodyTooLarge(max)
	}
	var body io.Reader
	if r.ContentLength < 0 {
		// Of unknown length: MaxBytesReader also tells the server to close
		// the connection rather than read the rest of an endless body.
		body = http.MaxBytesReader(ex.w, r.Body, max)
	} else {
		// Of declared length, which a body need not keep to once a
		// middleware has replaced it: read one byte past the limit to see.
		ex.limit = io.LimitedReader{R: r.Body, N: max + 1}
		body = &ex.limit
	}
	ex.in.Reset()
	_, err := ex.in.ReadFrom(body)
	switch {
	case isMaxBytesError(err) || int64(ex.in.Len()) > max:
		return nil, bodyTooLarge(max)
	case err != nil && isTimeout(err): // isTimeout allocates: not on the way of every body
		// The client was too slow, not wrong: 408 invites it to try again.
		// The rest of the body may still be on its way, so the connection
		// cannot carry another request.
		ex.Header().Set("Connection", "close")
		return nil, &Error{Status: http.StatusRequestTimeout,
			Detail: "Request body did not arrive within the server's read timeout.", Err: err}
	case err != nil:
		return nil, &Error{Status: http.StatusBadRequest, Detail: "Failed to read the request body.", Err: err}
	}
	return ex.in.Bytes(), nil
}

// isMaxBytesError reports whether err is MaxBytesReader's. The target of
// errors.As escapes to the heap where it is declared: declared here, past
// the nil check, a body read whole does not allocate it.
func isMaxBytesError(err error) bool {
	if err == nil {
		return false
	}
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}

func bodyTooLarge(max int64) *Error {
	return &Error{Status: http.StatusRequestEntityTooLarge,
		Detail: "Request body is larger than the limit of " + strconv.FormatInt(max, 10) + " bytes."}
}

// isTimeout tells whether reading the body ended at the server's read
// deadline (http.Server.ReadTimeout) rather than at a broken or short body.
func isTimeout(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// checkContentEncoding refuses a body in any content coding but identity
// with 415 and Accept-Encoding: identity (RFC 9110 §15.5.16): the codecs
// read bytes as they arrive, so a gzipped body would otherwise be
// reported as invalid UTF-8, which sends the client looking in the wrong
// place.
func checkContentEncoding(ex *exchange, r *http.Request) error {
	values, ok := r.Header["Content-Encoding"]
	if !ok {
		return nil
	}
	for _, v := range values {
		for coding := range strings.SplitSeq(v, ",") {
			coding = strings.TrimSpace(coding)
			if coding == "" || strings.EqualFold(coding, "identity") {
				continue
			}
			ex.Header().Set("Accept-Encoding", "identity")
			return &Error{Status: http.StatusUnsupportedMediaType,
				Detail: "Content-Encoding " + strconv.Quote(Clip(coding)) + " is not supported; send the body unencoded."}
		}
	}
	return nil
}
