package main

// A network stall between greeter and PostgreSQL, under traffic: the
// network stops carrying anything and closes nothing, so the service's
// connections stay open, half-open from its side. Requests that need the
// database must be answered 503 within the configured timeouts (never by
// the client giving up), readiness must go down, and the service must
// recover by itself when the network heals, whether the stalled
// connections are given back (the far end resets them) or are lost for
// good (a firewall or NAT on the path dropped their state), losing
// nothing it acknowledged.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/framework/testing/polltest"
)

// stallPoolSize is the instance's pool (maximum-pool-size, and so
// minimum-idle): the burst after the stall sends as many requests at once,
// so that every connection the pool holds is lent out.
const stallPoolSize = 10

// caughtBound bounds how long after the heal the service may still hold
// a connection the partition caught: pgx, giving one up, waits up to 15 s
// for the server to say goodbye, and an idle one nobody pinged it would
// keep until max-lifetime; the pool bounds the goodbye by the connection
// timeout (1 s here) and sweeps its idle connections at the first dead one.
const caughtBound = 10 * time.Second

// timedPost is one POST of a stallLoad: when it was sent, how long it took
// and how it was answered (status 0: no answer).
type timedPost struct {
	text       string
	sent, took time.Duration // since the load began
	status     int
	detail     string // a 503's problem detail
}

// stallLoad is clients posting labelled messages one after another, each
// answer recorded with its times.
type stallLoad struct {
	began time.Time
	mu    sync.Mutex
	posts []timedPost
	stop  chan struct{}
	wg    sync.WaitGroup
}

func startStallLoad(base string, clients int) *stallLoad {
	l := &stallLoad{began: time.Now(), stop: make(chan struct{})}
	keepSending(&l.wg, l.stop, clients, func(c, i int) { l.post(base, label(c, i)) })
	return l
}

// post sends one message and records it.
func (l *stallLoad) post(base, text string) timedPost {
	p := timedPost{text: text, sent: time.Since(l.began)}
	body, _ := json.Marshal(map[string]string{"text": text})
	status, answer, _ := sendBody("POST", base+"/api/messages", string(body))
	p.took, p.status = time.Since(l.began)-p.sent, status
	if status == 503 {
		var problem struct{ Detail string }
		json.Unmarshal([]byte(answer), &problem)
		p.detail = problem.Detail
	}
	l.mu.Lock()
	l.posts = append(l.posts, p)
	l.mu.Unlock()
	return p
}

// first returns the first POST sent at or after from that cond holds
// for, and whether there is one.
func (l *stallLoad) first(from time.Duration, cond func(timedPost) bool) (timedPost, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range l.posts {
		if p.sent >= from && cond(p) {
			return p, true
		}
	}
	return timedPost{}, false
}

func (l *stallLoad) finish() {
	close(l.stop)
	l.wg.Wait()
}

// acknowledged counts the POSTs answered 201.
func (l *stallLoad) acknowledged() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, p := range l.posts {
		if p.status == 201 {
			n++
		}
	}
	return n
}

// sendBody sends a JSON body and returns the status and the answer; 0
// is no answer, within the client's 30 s.
func sendBody(method, target, body string) (int, string, error) {
	req, err := http.NewRequest(method, target, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

func TestDatabaseNetworkStall(t *testing.T) {
	t.Parallel()
	hang, restore := (*enginetest.Proxy).Hang, (*enginetest.Proxy).Restore
	partition, heal := (*enginetest.Proxy).Partition, (*enginetest.Proxy).Heal
	for _, tt := range []struct {
		name        string
		stall, heal func(*enginetest.Proxy)
		// quiet stops the load before the stall, as in a quiet spell,
		// and sends one POST at a time while it lasts: the stall then
		// leaves the pool's idle connections untouched, and only the
		// pool can find them dead.
		quiet bool
	}{
		{"connections reset at heal", hang, restore, false},
		{"connections lost for good", partition, heal, false},
		{"connections lost for good in a quiet spell", partition, heal, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, db, _ := startBehindProxies(t,
				fmt.Sprintf("--app.datasource.hikari.maximum-pool-size=%d", stallPoolSize),
				"--app.datasource.hikari.validation-timeout=250ms")
			load := startStallLoad(s.base, 2)
			waitFor(t, "50 acknowledged POSTs", func() bool { return load.acknowledged() >= 50 })

			if tt.quiet {
				load.finish()
			}
			stalled := time.Since(load.began)
			tt.stall(db)
			var readinessDown time.Duration
			polltest.Until(t, databaseBound, "readiness to go down", func() error {
				status, body, err := send("GET", s.base+"/actuator/health/readiness")
				if status != 503 || !strings.Contains(body, `"db":{"status":"DOWN"`) {
					return fmt.Errorf("readiness: %d %v %.200s", status, err, body)
				}
				readinessDown = time.Since(load.began) - stalled
				return nil
			})
			var first503 timedPost
			polltest.Until(t, 2*databaseBound, "a POST answered 503", func() error {
				if tt.quiet {
					load.post(s.base, label(99, 0))
				}
				p, ok := load.first(stalled, func(p timedPost) bool { return p.status == 503 })
				if !ok {
					return fmt.Errorf("none yet")
				}
				first503 = p
				return nil
			})

			healed := time.Since(load.began)
			tt.heal(db)
			var recovered timedPost
			polltest.Until(t, 2*databaseBound, "a POST sent after the heal to succeed", func() error {
				if tt.quiet {
					load.post(s.base, label(99, int(time.Since(load.began))))
				}
				p, ok := load.first(healed, func(p timedPost) bool { return p.status == 201 })
				if !ok {
					return fmt.Errorf("none yet")
				}
				recovered = p
				return nil
			})
			readinessUp := time.Duration(0)
			polltest.Until(t, 2*databaseBound, "readiness to come back", func() error {
				if status, body, err := send("GET", s.base+"/actuator/health/readiness"); status != 200 {
					return fmt.Errorf("readiness: %d %v %.200s", status, err, body)
				}
				readinessUp = time.Since(load.began) - healed
				return nil
			})
			if !tt.quiet {
				load.finish()
			}

			// A burst of as many POSTs at once as the pool has
			// connections, several times: each lends out every
			// connection the pool holds, and a stalled one that the pool
			// kept would answer 503 after the timeout.
			var burst sync.WaitGroup
			for c := range stallPoolSize {
				burst.Go(func() {
					for i := range 5 {
						load.post(s.base, label(100+c, i))
					}
				})
			}
			burst.Wait()

			t.Logf("stall: first 503 after %v (sent %v after the stall began), readiness down after %v; heal: first 201 sent %v after, answered after %v, readiness up after %v",
				(first503.sent + first503.took - stalled).Round(time.Millisecond), (first503.sent - stalled).Round(time.Millisecond),
				readinessDown.Round(time.Millisecond), (recovered.sent - healed).Round(time.Millisecond),
				(recovered.sent + recovered.took - healed).Round(time.Millisecond), readinessUp.Round(time.Millisecond))
			if first503.sent+first503.took-stalled >= databaseBound {
				t.Errorf("the first 503 came %v after the stall began, want less than %v", first503.sent+first503.took-stalled, databaseBound)
			}

			statuses := map[int]int{}
			sent, acked := map[string]bool{}, map[string]bool{}
			for _, p := range load.posts {
				statuses[p.status]++
				sent[p.text] = true
				if p.status == 201 {
					acked[p.text] = true
				}
				switch {
				case p.status != 201 && p.status != 503:
					t.Errorf("POST %s sent %v after the start: %d (0: no answer), want 201 or 503", p.text, p.sent, p.status)
				case p.status == 503 && !strings.HasPrefix(p.detail, "PostgreSQL is unavailable"):
					t.Errorf("POST %s: 503 with detail %q, want PostgreSQL's outage", p.text, p.detail)
				case p.took >= databaseBound:
					t.Errorf("POST %s took %v, want less than %v: the one-second timeouts set do not bound it", p.text, p.took, databaseBound)
				}
				if p.status == 503 && p.sent > recovered.sent {
					// Once a POST succeeded, the pool lends no connection
					// the stall caught: the burst reached every one.
					t.Errorf("POST %s sent %v after the heal, after the service recovered: 503 %s", p.text, p.sent-healed, p.detail)
				}
			}
			t.Logf("answers: %v", statuses)

			if strings.HasPrefix(tt.name, "connections lost") {
				// The pool gives up the connections the partition caught.
				var gone time.Duration
				polltest.Until(t, caughtBound, "the pool to give up the caught connections", func() error {
					if n := db.Caught(); n > 0 {
						return fmt.Errorf("%d caught connections still open", n)
					}
					gone = time.Since(load.began) - healed
					return nil
				})
				t.Logf("the caught connections were all closed %v after the heal", gone.Round(time.Millisecond))
			}
			checkAcknowledgedOnce(t, texts(t, s.base), acked, sent)
		})
	}
}
