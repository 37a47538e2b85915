package boottest

// Reading what the service answers: a request as it goes on the wire, for
// the ones net/http's client will not send; the framework's problem
// documents; settings as /actuator/env shows them.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"testing"
	"time"
)

// RawExchange opens a connection to addr, writes req, a request as it
// goes on the wire (and then body, if not nil, while it reads), and reads
// one answer within timeout: for requests that net/http's client does not
// send. The writing runs beside the reading so that a server that answers
// before it has read everything, such as a 413 for a declared length or a
// 431, is seen answering; a write error after the answer is not a failure
// of the exchange. The Response has no Request.
func RawExchange(addr string, req []byte, body io.Reader, timeout time.Duration) (Response, error) {
	conn, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return Response{}, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(timeout))
	if body != nil {
		// A small send buffer makes the writer wait on the server, as a
		// client across a network would, instead of pushing megabytes
		// into the kernel that the server never reads.
		conn.(*net.TCPConn).SetWriteBuffer(64 << 10)
	}
	go func() {
		if _, err := conn.Write(req); err != nil || body == nil {
			return
		}
		io.Copy(conn, body)
	}()
	return ReadResponse(conn)
}

// ReadResponse reads one whole answer from r, as RawExchange does; a body
// shorter than its Content-Length is an error.
func ReadResponse(r io.Reader) (Response, error) {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return Response{Status: resp.StatusCode, Header: resp.Header}, fmt.Errorf("reading the body of a %d: %w", resp.StatusCode, err)
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: string(b)}, nil
}

// Problem is a problem document (RFC 9457) as the framework writes it,
// with its extensions.
type Problem struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
	Instance  string `json:"instance"`
	RequestID string `json:"requestId"`
	TraceID   string `json:"traceId"`
}

// CheckProblem reads an answer as the framework's problem document for its
// status, and reports how it fails to be one: its Content-Type, type,
// status, title and detail.
func CheckProblem(status int, header http.Header, body string) (Problem, error) {
	var p Problem
	if ct := header.Get("Content-Type"); ct != "application/problem+json" {
		return p, fmt.Errorf("Content-Type %q, want application/problem+json", ct)
	}
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		return p, fmt.Errorf("body is not a problem document: %v", err)
	}
	if p.Type != "about:blank" || p.Status != status || p.Title != http.StatusText(status) || p.Detail == "" {
		return p, fmt.Errorf("problem %+v does not describe a %d", p, status)
	}
	return p, nil
}

// Property is a setting as /actuator/env/{name} shows it: its value, the
// source that sets it, and where in that source.
type Property struct{ Value, Source, Origin string }

// ReadProperty reads the setting name through the instance's
// /actuator/env/{name}, which must be exposed with its values shown
// (management.endpoints.web.exposure.include=env,
// management.endpoint.env.show-values=always), and fails the test when it
// cannot.
func (s *Instance) ReadProperty(t testing.TB, name string) Property {
	t.Helper()
	r := Send(t, nil, "GET", s.ManagementURL+"/actuator/env/"+name, "")
	type source struct {
		Name     string `json:"name"`
		Property *struct {
			Origin string `json:"origin"`
		} `json:"property"`
	}
	var d struct {
		Property struct {
			Source string `json:"source"`
			Value  string `json:"value"`
		} `json:"property"`
		PropertySources []source `json:"propertySources"`
	}
	if err := json.Unmarshal([]byte(r.Body), &d); r.Status != 200 || err != nil {
		t.Fatalf("GET /actuator/env/%s: %d %s", name, r.Status, r.Body)
	}
	i := slices.IndexFunc(d.PropertySources, func(s source) bool { return s.Property != nil })
	if i < 0 {
		t.Fatalf("/actuator/env/%s names no source: %s", name, r.Body)
	}
	return Property{Value: d.Property.Value, Source: d.Property.Source, Origin: d.PropertySources[i].Property.Origin}
}
