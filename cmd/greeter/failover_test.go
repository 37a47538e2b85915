package main

// A failover of PostgreSQL under load (issue 34, point 3): a primary and a
// streaming standby of the test's own (pgtest), greeter given both hosts
// with target_session_attrs=read-write, the primary stopped, killed or
// fenced and the standby promoted while clients write and probes ask for
// readiness.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/pgtest"
	"github.com/springport/greeter/framework/testing/polltest"
)

// TestDatabaseFailover fails PostgreSQL over from a primary to its
// promoted standby while 8 clients post and 2 probes read readiness, the
// pool filled to its 10 connections first, in three ways:
//
//   - stop: the primary shut down as an operator does (fast shutdown),
//     with asynchronous replication (a fast shutdown streams all the
//     standby lacks), named by a postgres:// URL with
//     target_session_attrs=read-write;
//   - kill: the primary killed as a crash does (SIGKILL to every
//     process), with synchronous replication (synchronous_standby_names:
//     asynchronous replication loses to a crash what the standby had not
//     received), named by a JDBC URL with targetServerType=primary;
//   - fence: the primary made read-only (default_transaction_read_only,
//     reloaded), as a planned switchover fences it, and left running,
//     with synchronous replication (the standby is promoted at once, not
//     once it has replayed all the primary wrote).
//
// Whichever, the writes answer 503 (a problem document saying PostgreSQL is
// unavailable) only between the primary's end and the first write that
// the new primary takes, and 201 from then on; readiness is
// OUT_OF_SERVICE while no primary takes writes and UP after; every POST
// answered 201 is listed once; and the pool then holds no connection but
// those the new primary serves. It logs how long the switch took and how
// many 503s it cost (see docs/scale-out.md).
//
// Not parallel: it measures the switch, which other tests' load would
// lengthen.
func TestDatabaseFailover(t *testing.T) {
	pgURL := func(p, s *pgtest.Server) string {
		return fmt.Sprintf("postgres://postgres@127.0.0.1:%d,127.0.0.1:%d/postgres?target_session_attrs=read-write", p.Port, s.Port)
	}
	jdbcURL := func(p, s *pgtest.Server) string {
		return fmt.Sprintf("jdbc:postgresql://127.0.0.1:%d,127.0.0.1:%d/postgres?targetServerType=primary&user=postgres", p.Port, s.Port)
	}
	for _, tt := range []struct {
		name string
		end  primaryEnd
		url  func(primary, standby *pgtest.Server) string
	}{
		{"stop", stopPrimary, pgURL},
		{"kill", killPrimary, jdbcURL},
		{"fence", fencePrimary, pgURL},
	} {
		t.Run(tt.name, func(t *testing.T) {
			primary := pgtest.Start(t)
			standby := primary.Standby(t)
			if tt.end != stopPrimary {
				// Set after the copy, so that the standby, once
				// promoted, waits for no standby of its own.
				synchronousStandby(t, primary)
			}
			testFailover(t, primary, standby, tt.url(primary, standby), tt.end)
		})
	}
}

// primaryEnd is how TestDatabaseFailover's primary stops taking writes.
type primaryEnd int

const (
	stopPrimary primaryEnd = iota
	killPrimary
	fencePrimary
)

func (e primaryEnd) String() string {
	return [...]string{"stopped (fast shutdown)", "killed", "fenced (read-only)"}[e]
}

func testFailover(t *testing.T, primary, standby *pgtest.Server, dataSourceURL string, end primaryEnd) {
	s := start(t, []string{
		"--app.datasource.url=" + dataSourceURL,
		"--management.endpoint.health.show-details=always",
		"--management.endpoints.web.exposure.include=health,prometheus",
	}, nil)
	// Every connection of the pool open when the primary ends: those the
	// load then leaves idle must not outlive it.
	fillPool(t, s)
	load := startFailoverLoad(s.base, 8, 2)
	t.Cleanup(load.finish) // a failed wait below leaves it running

	// The pace before the failover: the baseline of the bound below.
	began := time.Now()
	polltest.Until(t, failoverWait, "1,000 acknowledged POSTs before the failover", func() error {
		return load.atLeast(201, began, 1000)
	})
	ended := time.Now()
	steady := load.latencies(201, began, ended)

	switch end {
	case stopPrimary:
		primary.Stop(t)
	case killPrimary:
		primary.Kill(t)
	case fencePrimary:
		fence(t, primary)
	}
	down := time.Now()
	// With the primary gone and the standby not yet promoted, no server
	// takes writes: a write must be refused as an outage, and the
	// instance must be out of the load balancer.
	if r := s.do(t, "POST", "/api/messages", `{"text":"between"}`, "Content-Type: application/json"); r.status != 503 || !strings.HasPrefix(decodeJSON[boottest.Problem](t, r).Detail, "PostgreSQL is unavailable") {
		t.Errorf("a POST with no primary: %d %s, want 503 PostgreSQL is unavailable", r.status, r.body)
	}
	if r := s.do(t, "GET", "/actuator/health/readiness", ""); r.status != 503 || !strings.HasPrefix(r.body, `{"status":"OUT_OF_SERVICE",`) || !strings.Contains(r.body, `"db":{"status":"DOWN"`) {
		t.Errorf("readiness with no primary: %d %s, want 503 OUT_OF_SERVICE with db DOWN", r.status, r.body)
	}
	standby.Promote(t)
	promoted := time.Now()

	polltest.Until(t, failoverWait, "a POST sent after the primary's end to be acknowledged", func() error {
		return load.atLeast(201, down, 1)
	})
	first := load.firstAnswer(201, down)
	polltest.Until(t, failoverWait, "1,000 more acknowledged POSTs and 20 readiness probes after the switch", func() error {
		if err := load.atLeast(201, first, 1000); err != nil {
			return err
		}
		return load.probesAtLeast(first, 20)
	})
	load.finish()

	// Only 201s and, in the switch, 503s that say why.
	var refused int
	for _, w := range load.writes() {
		switch {
		case w.status == 201:
		case w.status == 503 && strings.HasPrefix(w.detail, "PostgreSQL is unavailable"):
			refused++
			if w.answered.Before(ended) {
				t.Errorf("%q was answered 503 before the primary's end: %s", w.text, w.detail)
			}
			if !w.sent.Before(first) {
				t.Errorf("%q, sent %v after the first POST that the new primary took, was answered 503: %s", w.text, w.sent.Sub(first).Round(time.Millisecond), w.detail)
			}
		default:
			t.Errorf("%q: answered %d %q (%v), want 201, or 503 saying PostgreSQL is unavailable", w.text, w.status, w.detail, w.err)
		}
	}
	if refused == 0 {
		t.Error("no POST of the load was refused: it missed the switch")
	}

	// Readiness: UP before, OUT_OF_SERVICE during, UP after the switch.
	var probesDown int
	var lastDown time.Time
	for _, p := range load.probes() {
		switch {
		case p.status == 200 && p.body == readinessUp:
		case p.status == 503 && strings.HasPrefix(p.body, `{"status":"OUT_OF_SERVICE",`) && strings.Contains(p.body, `"db":{"status":"DOWN"`):
			probesDown++
			lastDown = p.answered
			if p.answered.Before(ended) || !p.sent.Before(first) {
				t.Errorf("readiness was OUT_OF_SERVICE outside the switch (sent %v after the first POST that the new primary took): %s", p.sent.Sub(first).Round(time.Millisecond), p.body)
			}
		default:
			t.Errorf("readiness answered %d %.300q (%v)", p.status, p.body, p.err)
		}
	}

	checkAcknowledgedOnce(t, texts(t, s.base), load.acked(), load.sent())
	checkPoolOnNewPrimary(t, s, standby, primary, end)

	// Found by the next connection greeter opens, as the first host
	// refuses it: the new primary took a write within a few of the
	// load's POSTs of its promotion, not after a timeout.
	slowest := slices.Max(steady)
	if lag := first.Sub(promoted); lag > 10*slowest {
		t.Errorf("the first POST after the promotion was acknowledged %v after it, over 10 times the slowest POST before the failover (%v)", lag, slowest)
	}

	// The figures, for docs/scale-out.md.
	after := load.latencies(201, first, time.Now())
	t.Logf("primary %s in %v, standby promoted in %v; the first POST after it acknowledged %v after the primary's end began, %v after the promotion",
		end, down.Sub(ended).Round(time.Millisecond), promoted.Sub(down).Round(time.Millisecond),
		first.Sub(ended).Round(time.Millisecond), first.Sub(promoted).Round(time.Millisecond))
	t.Logf("%d POSTs answered 503; acknowledged: %d in all, %d before the switch at %.0f/s (median %v, slowest %v), %d after (median %v); readiness OUT_OF_SERVICE %d times, the last answered %v after the primary's end began",
		refused, len(load.acked()), len(steady), float64(len(steady))/ended.Sub(began).Seconds(), median(steady), slowest.Round(time.Microsecond),
		len(after), median(after), probesDown, lastDown.Sub(ended).Round(time.Millisecond))
}

// readinessUp is the readiness group UP, with show-details=always.
const readinessUp = `{"status":"UP","components":{"db":{"status":"UP","details":{"database":"PostgreSQL","validationQuery":"isValid()"}},"readinessState":{"status":"UP"}}}`

// failoverWait bounds each wait of TestDatabaseFailover: the load's pace
// and the servers' start-up on a loaded machine under the race detector,
// not greeter's recovery, which the test measures and bounds apart.
const failoverWait = 60 * time.Second

// synchronousStandby makes primary wait, at each commit, until its
// standby has the commit (synchronous_standby_names = '*'), and waits
// until the standby streams synchronously.
func synchronousStandby(t *testing.T, primary *pgtest.Server) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, primary.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, sql := range []string{"ALTER SYSTEM SET synchronous_standby_names = '*'", "SELECT pg_reload_conf()"} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	polltest.Until(t, failoverWait, "the standby to stream synchronously", func() error {
		var state string
		err := conn.QueryRow(ctx, "SELECT coalesce(string_agg(sync_state, ','), 'none') FROM pg_stat_replication").Scan(&state)
		if err == nil && state != "sync" {
			err = fmt.Errorf("sync_state %s", state)
		}
		return err
	})
}

// fence makes primary read-only as a switchover fences it: the default
// of every transaction, those of the sessions open included, is read only
// (default_transaction_read_only, set and reloaded), and it goes on
// serving reads. It returns once a new session sees the setting, when
// the postmaster has signalled every session to read it.
func fence(t *testing.T, primary *pgtest.Server) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, primary.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, sql := range []string{"ALTER SYSTEM SET default_transaction_read_only = on", "SELECT pg_reload_conf()"} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	polltest.Until(t, failoverWait, "the primary to be read-only", func() error {
		c, err := pgx.Connect(ctx, primary.URL)
		if err != nil {
			return err
		}
		defer c.Close(ctx)
		var on string
		if err := c.QueryRow(ctx, "SHOW default_transaction_read_only").Scan(&on); err != nil || on != "on" {
			return fmt.Errorf("default_transaction_read_only %q %v", on, err)
		}
		return nil
	})
}

var poolConnections = regexp.MustCompile(`(?m)^hikaricp_connections(_max)?\{[^}]*\} (\d+)$`)

// pool reads the pool's connections (lent out and idle) and its maximum
// from the metrics of s.
func pool(s *service) (open, most int, err error) {
	status, body, err := send("GET", s.base+"/actuator/prometheus")
	if err != nil || status != 200 {
		return 0, 0, fmt.Errorf("/actuator/prometheus: %d %v", status, err)
	}
	open, most = -1, -1
	for _, m := range poolConnections.FindAllStringSubmatch(body, -1) {
		n, _ := strconv.Atoi(m[2])
		if m[1] == "" {
			open = n
		} else {
			most = n
		}
	}
	if open < 0 || most < 0 {
		return 0, 0, fmt.Errorf("no hikaricp_connections or _max in /actuator/prometheus")
	}
	return open, most, nil
}

// fillPool has the pool of s open every connection it may, by asking for
// readiness, which takes one for its ping, from many clients at once.
func fillPool(t *testing.T, s *service) {
	t.Helper()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(stop)
	probes := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}, Timeout: 30 * time.Second}
	defer probes.CloseIdleConnections()
	deadline := time.Now().Add(failoverWait)
	for range 32 {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				select {
				case <-stop:
					return
				default:
				}
				if resp, err := probes.Get(s.base + "/actuator/health/readiness"); err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}
		})
	}
	polltest.Until(t, failoverWait, "the pool to open all its connections", func() error {
		open, most, err := pool(s)
		if err == nil && open < most {
			err = fmt.Errorf("%d of %d open", open, most)
		}
		return err
	})
}

// checkPoolOnNewPrimary fails the test unless every connection that the
// pool of s holds (hikaricp_connections: lent out and idle) is one that
// the promoted standby serves (a greeter session in its
// pg_stat_activity), and none is left to the former primary where it
// still runs. It waits for the counts to agree, as a connection closed on
// either side a moment ago may still be counted on the other.
func checkPoolOnNewPrimary(t *testing.T, s *service, promoted, former *pgtest.Server, end primaryEnd) {
	t.Helper()
	sessions := func(server *pgtest.Server) (int, error) {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, server.URL)
		if err != nil {
			return 0, err
		}
		defer conn.Close(ctx)
		var n int
		err = conn.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'greeter'").Scan(&n)
		return n, err
	}
	var open, served, left int
	err := polltest.Check(failoverWait, func() error {
		var err error
		if open, _, err = pool(s); err != nil {
			return err
		}
		if served, err = sessions(promoted); err != nil {
			return err
		}
		if end == fencePrimary {
			if left, err = sessions(former); err != nil {
				return err
			}
		}
		if open != served || left != 0 {
			return fmt.Errorf("the pool holds %d connections; the new primary serves %d of greeter's, the former one %d", open, served, left)
		}
		return nil
	})
	if err != nil {
		t.Errorf("after the failover: %v", err)
	}
}

// failoverLoad is clients that post unique texts, and probes that read
// readiness, each one request after the other until finish; each request
// is recorded with when it was sent and answered.
type failoverLoad struct {
	mu        sync.Mutex
	posts     []request
	readiness []request

	client   *http.Client // keeps a connection per client and probe
	stop     chan struct{}
	wg       sync.WaitGroup
	finished sync.Once
}

// request is one request of a failoverLoad and its answer.
type request struct {
	text           string // the POST's text; "" for a probe
	sent, answered time.Time
	status         int    // 0: no answer (err)
	body           string // a probe's
	detail         string // a refusal's problem detail
	err            error
}

// failoverBound bounds each client's requests, so that the load stops by
// itself whatever the test does.
const failoverBound = 50000

func startFailoverLoad(base string, writers, probes int) *failoverLoad {
	l := &failoverLoad{stop: make(chan struct{}),
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: writers + probes}, Timeout: 30 * time.Second}}
	deadline := time.Now().Add(5 * time.Minute)
	loop := func(each func(i int)) {
		l.wg.Go(func() {
			for i := 0; i < failoverBound && time.Now().Before(deadline); i++ {
				select {
				case <-l.stop:
					return
				default:
				}
				each(i)
			}
		})
	}
	for c := range writers {
		loop(func(i int) {
			r := request{text: label(c, i), sent: time.Now()}
			var contentType string
			r.status, contentType, r.body, r.err = l.exchange("POST", base+"/api/messages", `{"text":"`+r.text+`"}`)
			r.answered = time.Now()
			if r.status != 201 {
				if p, err := boottest.CheckProblem(r.status, http.Header{"Content-Type": {contentType}}, r.body); err == nil {
					r.detail = p.Detail
				} else {
					r.detail = fmt.Sprintf("not a problem document (%v): %.200s", err, r.body)
				}
			}
			r.body = ""
			l.mu.Lock()
			l.posts = append(l.posts, r)
			l.mu.Unlock()
		})
	}
	for range probes {
		loop(func(int) {
			r := request{sent: time.Now()}
			r.status, _, r.body, r.err = l.exchange("GET", base+"/actuator/health/readiness", "")
			r.answered = time.Now()
			l.mu.Lock()
			l.readiness = append(l.readiness, r)
			l.mu.Unlock()
		})
	}
	return l
}

// exchange sends one request, a JSON body when body is not empty, and
// returns the answer's status, Content-Type and body.
func (l *failoverLoad) exchange(method, target, body string) (int, string, string, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		return 0, "", "", err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return 0, "", "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b), err
}

// finish stops the clients and probes, and waits for them.
func (l *failoverLoad) finish() {
	l.finished.Do(func() {
		close(l.stop)
		l.wg.Wait()
		l.client.CloseIdleConnections()
	})
}

func (l *failoverLoad) writes() []request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.posts)
}

func (l *failoverLoad) probes() []request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.readiness)
}

// atLeast returns nil once n POSTs sent at since or later were answered
// status.
func (l *failoverLoad) atLeast(status int, since time.Time, n int) error {
	got := 0
	for _, w := range l.writes() {
		if w.status == status && !w.sent.Before(since) {
			got++
		}
	}
	if got < n {
		return fmt.Errorf("%d POSTs sent since answered %d", got, status)
	}
	return nil
}

// probesAtLeast returns nil once n probes were sent at since or later.
func (l *failoverLoad) probesAtLeast(since time.Time, n int) error {
	got := 0
	for _, p := range l.probes() {
		if !p.sent.Before(since) {
			got++
		}
	}
	if got < n {
		return fmt.Errorf("%d readiness probes sent since", got)
	}
	return nil
}

// firstAnswer is when the first POST sent at since or later to be
// answered status was answered.
func (l *failoverLoad) firstAnswer(status int, since time.Time) time.Time {
	var first time.Time
	for _, w := range l.writes() {
		if w.status == status && !w.sent.Before(since) && (first.IsZero() || w.answered.Before(first)) {
			first = w.answered
		}
	}
	return first
}

// latencies are how long the POSTs sent from since to until and answered
// status took.
func (l *failoverLoad) latencies(status int, since, until time.Time) []time.Duration {
	var out []time.Duration
	for _, w := range l.writes() {
		if w.status == status && !w.sent.Before(since) && w.sent.Before(until) {
			out = append(out, w.answered.Sub(w.sent))
		}
	}
	return out
}

func (l *failoverLoad) sent() map[string]bool {
	out := map[string]bool{"between": true}
	for _, w := range l.writes() {
		out[w.text] = true
	}
	return out
}

func (l *failoverLoad) acked() map[string]bool {
	out := map[string]bool{}
	for _, w := range l.writes() {
		if w.status == 201 {
			out[w.text] = true
		}
	}
	return out
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2].Round(time.Microsecond)
}
