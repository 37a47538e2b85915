package main

// Tests of what bounds the memory and the storage that clients can take:
// the limits on the message collection, its pages, and list responses
// to clients that do not read them.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/framework/testing/heaptest"
)

// eachStore runs test once with the messages in memory and once in
// PostgreSQL (skipped, saying why, when no test database is configured),
// passing the arguments that choose the store. The two run in parallel,
// each with an instance of its own.
func eachStore(t *testing.T, test func(t *testing.T, storeArgs []string)) {
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		test(t, nil)
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		test(t, []string{"--app.datasource.url=" + enginetest.Postgres(t)})
	})
}

// TestMessageLimits checks that a POST past app.messages.max-count, or a
// POST or PUT past app.messages.max-total-size, is refused with a 507
// problem document that names the setting, that nothing stored changes,
// and that /actuator/prometheus shows the usage against the limits.
func TestMessageLimits(t *testing.T) {
	t.Parallel()
	eachStore(t, testMessageLimits)
}

func testMessageLimits(t *testing.T, storeArgs []string) {
	s := start(t, append(storeArgs, "--app.messages.max-count=3", "--app.messages.max-total-size=10B",
		"--management.endpoints.web.exposure.include=health,prometheus"), nil)
	for _, text := range []string{"1234", "", "56"} {
		if r := s.do(t, "POST", "/api/messages", `{"text":"`+text+`"}`, "Content-Type: application/json"); r.status != 201 {
			t.Fatalf("POST %q: %d %s", text, r.status, r.body)
		}
	}
	r := s.do(t, "POST", "/api/messages", `{"text":"x"}`, "Content-Type: application/json")
	p := decodeJSON[boottest.Problem](t, r)
	if r.status != 507 || !strings.Contains(p.Detail, "app.messages.max-count (3)") {
		t.Errorf("a fourth message: %d %q, want 507 naming app.messages.max-count (3)", r.status, p.Detail)
	}
	r = s.do(t, "PUT", "/api/messages/1", `{"text":"12345"}`, "Content-Type: application/json")
	p = decodeJSON[boottest.Problem](t, r)
	if r.status != 507 || !strings.Contains(p.Detail, "app.messages.max-total-size (10 bytes)") {
		t.Errorf("replacing 0 bytes by 5 with 6 of 10 taken: %d %q, want 507 naming app.messages.max-total-size", r.status, p.Detail)
	}
	if r := s.do(t, "PUT", "/api/messages/1", `{"text":"abcd"}`, "Content-Type: application/json"); r.status != 204 {
		t.Errorf("replacing 0 bytes by 4 with 6 of 10 taken: %d %s, want 204", r.status, r.body)
	}
	if r := s.do(t, "GET", "/api/messages", ""); r.body != `[{"text":"1234"},{"text":"abcd"},{"text":"56"}]` {
		t.Errorf("after the refusals the collection is %s", r.body)
	}
	metrics := s.do(t, "GET", "/actuator/prometheus", "").body
	for _, want := range []string{"messages_stored 3\n", "messages_stored_max 3\n", "messages_text_bytes 10\n", "messages_text_bytes_max 10\n"} {
		want = strings.Replace(want, " ", `{application="greeter"} `, 1)
		if !strings.Contains(metrics, want) {
			t.Errorf("/actuator/prometheus lacks %q", want)
		}
	}
	// With PostgreSQL, its pool as Spring's dashboards know a DataSource's
	// (the pool's default size is 10 here, as HikariCP's).
	pool := []string{`jdbc_connections_max{application="greeter",name="dataSource"} 10`,
		`hikaricp_connections_max{application="greeter",pool="HikariPool-1"} 10`,
		`hikaricp_connections_acquire_seconds_count{application="greeter",pool="HikariPool-1"} `}
	for _, want := range pool {
		if got := strings.Contains(metrics, want); got != (storeArgs != nil) {
			t.Errorf("with store %v, /actuator/prometheus has %s: %v", storeArgs != nil, want, got)
		}
	}
}

// TestListPaging checks the pages of GET /api/messages through the whole
// program: Spring Data's parameters and settings, X-Total-Count and the
// Link header a client follows to the end.
func TestListPaging(t *testing.T) {
	t.Parallel()
	eachStore(t, testListPaging)
}

func testListPaging(t *testing.T, storeArgs []string) {
	s := start(t, append(storeArgs, "--app.data.web.pageable.default-page-size=2", "--app.data.web.pageable.max-page-size=3"), nil)
	for i := range 5 {
		if r := s.do(t, "POST", "/api/messages", fmt.Sprintf(`{"text":"m%d"}`, i), "Content-Type: application/json"); r.status != 201 {
			t.Fatalf("POST: %d %s", r.status, r.body)
		}
	}
	var got []string
	next := "/api/messages?page=0"
	for pages := 0; next != ""; pages++ {
		if pages > 5 {
			t.Fatalf("still following next links after %d pages: %v", pages, got)
		}
		r := s.do(t, "GET", next, "")
		if r.status != 200 || r.header.Get("X-Total-Count") != "5" {
			t.Fatalf("%s: %d, X-Total-Count %q", next, r.status, r.header.Get("X-Total-Count"))
		}
		for _, m := range decodeJSON[[]struct{ Text string }](t, r) {
			got = append(got, m.Text)
		}
		next = linkTo(r.header.Get("Link"), "next")
	}
	if fmt.Sprint(got) != "[m0 m1 m2 m3 m4]" {
		t.Errorf("walking the pages gave %v", got)
	}
	r := s.do(t, "GET", "/api/messages?size=50", "")
	if n := len(decodeJSON[[]struct{ Text string }](t, r)); n != 3 || !strings.Contains(r.header.Get("Link"), "size=3") {
		t.Errorf("?size=50 with max-page-size=3: %d messages, Link %s; want 3, size=3", n, r.header.Get("Link"))
	}
	if r := s.do(t, "GET", "/api/messages?page=-1", ""); r.status != 400 {
		t.Errorf("?page=-1: %d, want 400", r.status)
	}
}

// linkTo returns the target of the link with relation rel in a Link
// header, or "".
func linkTo(header, rel string) string {
	for link := range strings.SplitSeq(header, ", ") {
		target, params, _ := strings.Cut(link, ">; ")
		if params == `rel="`+rel+`"` {
			return strings.TrimPrefix(target, "<")
		}
	}
	return ""
}

// TestListMemoryIsBoundedForStalledReaders is the attack of issue 11: 50
// messages of 1 MiB, and 8 clients that ask for the whole list, in JSON
// and in XML, and stop reading once it has begun. The heap that is live
// while they stall must not exceed the collection's by more than 64 MiB
// (run serves inside the test process): a list response holds a buffer,
// not the list. The heap is measured after a collection, at the two
// moments a response held whole would be live: once every stalled client
// has its first bytes, and halfway through the list that a reading
// client gets beside them.
func TestListMemoryIsBoundedForStalledReaders(t *testing.T) {
	// Not parallel: it measures the process's live heap, which other tests would add to.
	const mib = 1 << 20
	s := start(t, []string{"--server.max-request-size=2MB"}, nil)
	text := strings.Repeat("0123456789abcdef", mib/16)
	for range 50 {
		if status, err := post(s.base, text); err != nil || status != 201 {
			t.Fatalf("POST of 1 MiB: %d %v", status, err)
		}
	}
	collection := heaptest.Live()

	// Each client reads the status line and the first bytes of the list,
	// which proves that the server is writing it, and then stops.
	var stalled []net.Conn
	defer func() {
		for _, c := range stalled {
			c.Close()
		}
	}()
	for i := range 8 {
		accept := []string{"application/json", "application/xml"}[i%2]
		c, err := net.DialTimeout("tcp", s.Addr(), waitTimeout)
		if err != nil {
			t.Fatal(err)
		}
		stalled = append(stalled, c)
		c.SetDeadline(time.Now().Add(waitTimeout))
		fmt.Fprintf(c, "GET /api/messages HTTP/1.1\r\nHost: x\r\nAccept: %s\r\n\r\n", accept)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("client %d: %v %v", i, resp, err)
		}
		if _, err := io.ReadFull(resp.Body, make([]byte, 64<<10)); err != nil {
			t.Fatalf("client %d: reading the first bytes: %v", i, err)
		}
	}
	stalling := heaptest.Live()

	resp, err := client.Get(s.base + "/api/messages")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	const whole = int64(50*(mib+len(`{"text":""},`)) + 1) // [ and ], less the last comma
	half, err := io.CopyN(io.Discard, resp.Body, whole/2)
	if err != nil {
		t.Fatalf("a reading client beside the stalled ones got %d bytes: %v", half, err)
	}
	reading := heaptest.Live()
	rest, err := io.Copy(io.Discard, resp.Body)
	if err != nil || half+rest != whole {
		t.Fatalf("a reading client beside the stalled ones got %d bytes (%v), want %d", half+rest, err, whole)
	}

	t.Logf("live heap: %.1f MiB with the collection, %.1f MiB with 8 readers stalled, %.1f MiB with one more reading",
		float64(collection)/mib, float64(stalling)/mib, float64(reading)/mib)
	if growth := int64(max(stalling, reading)) - int64(collection); growth > 64*mib {
		t.Errorf("the live heap grew by %.1f MiB over the collection's %.1f MiB; want under 64 MiB: list responses are held whole",
			float64(growth)/mib, float64(collection)/mib)
	}
}
