package boot_test

// End-to-end tests of what is logged about requests: the access log,
// request IDs, and the failure log, which a flood of failures does not
// fill at request rate.

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestAccessLogAndRequestIDs: with the access log on, a sane X-Request-Id
// is kept, an insane one replaced, and each request's line names its ID;
// the access log is off by default.
func TestAccessLogAndRequestIDs(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--server.access-log.enabled=true"}, nil)
	r := send(t, nil, "GET", s.URL+"/hello/7", "", "X-Request-Id: trace-42")
	if r.header.Get("X-Request-Id") != "trace-42" {
		t.Errorf("X-Request-Id came back as %q, want trace-42", r.header.Get("X-Request-Id"))
	}
	bad := send(t, nil, "GET", s.URL+"/hello/x", "", "X-Request-Id: not sane!")
	id := bad.header.Get("X-Request-Id")
	if p := problemOf(t, bad); id == "" || id == "not sane!" || p.RequestID != id {
		t.Errorf("an insane X-Request-Id: answered %q, problem %s", id, bad.body)
	}
	// An access log line is written once its response is, so it may come
	// after the client has read the response.
	s.WaitForLog(t, regexp.MustCompile(regexp.QuoteMeta(`msg=request method=GET path=/hello/7 route=/hello/{n} status=200 bytes=`+strconv.Itoa(len(r.body))+` duration_ms=`)+`[0-9.]+ request_id=trace-42 logger=tester.accesslog\n`))
	s.WaitForLog(t, regexp.MustCompile(`msg=request method=GET path=/hello/x .* request_id=`+regexp.QuoteMeta(id)+` logger=tester.accesslog\n`))

	quiet := start(t, nil, nil)
	send(t, nil, "GET", quiet.URL+"/hello", "")
	if strings.Contains(quiet.Stdout.String(), "msg=request ") {
		t.Errorf("the access log is off by default, yet:\n%s", quiet.Stdout)
	}
}

// TestFailureLogCarriesRequestID finds a 5xx's log line by the request ID
// its problem document gave the client, with the access log off (the
// default), whether the service made the ID or the client sent it.
func TestFailureLogCarriesRequestID(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	for _, sent := range []string{"", "trace-500"} {
		var headers []string
		if sent != "" {
			headers = append(headers, "X-Request-Id: "+sent)
		}
		r := send(t, nil, "GET", s.URL+"/fail", "", headers...)
		if r.status != 500 {
			t.Fatalf("GET /fail (X-Request-Id %q): %d %s, want 500", sent, r.status, r.body)
		}
		p := problemOf(t, r)
		if p.RequestID == "" || r.header.Get("X-Request-Id") != p.RequestID || (sent != "" && p.RequestID != sent) {
			t.Errorf("GET /fail (X-Request-Id %q): requestId %q, header %q", sent, p.RequestID, r.header.Get("X-Request-Id"))
		}
		s.WaitForLog(t, regexp.MustCompile(`msg="request failed" method=GET path=/fail .* request_id=`+regexp.QuoteMeta(p.RequestID)+` logger=tester.dispatch\n`))
	}
}

// TestFailureFloodIsNotLoggedAtRequestRate: a client that makes the
// service fail as fast as it can fills the log with at most a few lines a
// second, and the count of those not logged is told.
func TestFailureFloodIsNotLoggedAtRequestRate(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	failing := regexp.MustCompile(`msg="request failed" method=GET path=/fail `)
	const sent = 200
	for range sent {
		if r := send(t, nil, "GET", s.URL+"/fail", ""); r.status != 500 {
			t.Fatalf("GET /fail: %d %s", r.status, r.body)
		}
	}
	if n := len(failing.FindAllString(s.Stdout.String(), -1)); n == 0 || n >= sent/2 {
		t.Errorf("%d identical failures logged %d lines, want at least the first and far fewer than them all", sent, n)
	}
	notLogged := regexp.MustCompile(`msg="request failed" method=GET path=/fail .* not_logged_since=[1-9]`)
	boottest.WaitFor(t, "a failure line that counts those not logged", func() bool {
		send(t, nil, "GET", s.URL+"/fail", "")
		return notLogged.MatchString(s.Stdout.String())
	})
}
