package main

// Helpers of the tests that run instances on shared engines: the settings
// that point an instance at a test database and Redis prefix, and a plain
// client for loads too large to check each answer against the OpenAPI
// document.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/springport/greeter/framework/testing/enginetest"
)

// engines are the test's own database and Redis key prefix.
type engines struct {
	databaseURL string
	redisURL    string
	namespace   string // app.session.data.redis.namespace: the test's key prefix
}

// newEngines makes a database and a Redis prefix for the test; the test
// is skipped when the engine variables are unset (see enginetest).
func newEngines(t *testing.T) engines {
	t.Helper()
	db := enginetest.Postgres(t)
	redisURL, prefix := enginetest.Redis(t)
	return engines{databaseURL: db, redisURL: redisURL, namespace: strings.TrimSuffix(prefix, ":")}
}

// args are the settings that make an instance keep its messages and
// sessions in e.
func (e engines) args() []string {
	return []string{
		"--app.datasource.url=" + e.databaseURL,
		"--app.session.store-type=redis",
		"--app.data.redis.url=" + e.redisURL,
		"--app.session.data.redis.namespace=" + e.namespace,
	}
}

// withHost returns rawURL with its host:port replaced by hostPort, to
// reach an engine through a proxy.
func withHost(t *testing.T, rawURL, hostPort string) string {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = hostPort
	return u.String()
}

// client is a plain HTTP client with a bound on each request, for loads.
var client = &http.Client{Timeout: 30 * time.Second}

// post appends text through base and returns the status; an error is a
// request that got no answer.
func post(base, text string) (int, error) {
	body, _ := json.Marshal(map[string]string{"text": text})
	resp, err := client.Post(base+"/api/messages", "application/json", strings.NewReader(string(body)))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

// send sends one request without a body and returns the status and body.
func send(method, target string) (int, string, error) {
	req, err := http.NewRequest(method, target, nil)
	if err != nil {
		return 0, "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// texts lists the texts of the messages that base serves, in order.
func texts(t *testing.T, base string) []string {
	t.Helper()
	status, body, err := send("GET", base+"/api/messages")
	if err != nil || status != 200 {
		t.Fatalf("GET %s/api/messages: %d %v %.300s", base, status, err, body)
	}
	var msgs []struct{ Text string }
	if err := json.Unmarshal([]byte(body), &msgs); err != nil {
		t.Fatalf("GET /api/messages: %v", err)
	}
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Text
	}
	return out
}

// countOf counts each text in list.
func countOf(list []string) map[string]int {
	n := map[string]int{}
	for _, s := range list {
		n[s]++
	}
	return n
}

// checkAcknowledgedOnce fails the test unless every acknowledged text is
// in list exactly once, and list holds nothing that was not sent.
func checkAcknowledgedOnce(t *testing.T, list []string, acked, sent map[string]bool) {
	t.Helper()
	counts := countOf(list)
	for text := range acked {
		if counts[text] != 1 {
			t.Errorf("acknowledged message %q is stored %d times, want once", text, counts[text])
		}
	}
	for text, n := range counts {
		if !sent[text] {
			t.Errorf("stored message %q was never sent", text)
		} else if n > 1 {
			t.Errorf("message %q is stored %d times", text, n)
		}
	}
}

// label names message i of client c, so that a list shows each client's
// order.
func label(c, i int) string { return fmt.Sprintf("client-%d-%05d", c, i) }

// postLoad is clients that post labelled messages until stopped, each
// message to the base that pick chooses, and record what was sent, what
// was acknowledged (201), by which base, and how each POST was answered
// (status 0 for no answer).
type postLoad struct {
	mu       sync.Mutex
	sent     map[string]bool
	acked    map[string]bool
	ackedBy  map[string]int // by base
	statuses map[string]map[int]int

	stop chan struct{}
	wg   sync.WaitGroup
}

func startPostLoad(clients int, pick func(client, i int) string) *postLoad {
	l := &postLoad{sent: map[string]bool{}, acked: map[string]bool{}, ackedBy: map[string]int{},
		statuses: map[string]map[int]int{}, stop: make(chan struct{})}
	keepSending(&l.wg, l.stop, clients, func(c, i int) {
		base, text := pick(c, i), label(c, i)
		l.mu.Lock()
		l.sent[text] = true
		l.mu.Unlock()
		status, _ := post(base, text)
		l.mu.Lock()
		if l.statuses[base] == nil {
			l.statuses[base] = map[int]int{}
		}
		l.statuses[base][status]++
		if status == 201 {
			l.acked[text] = true
			l.ackedBy[base]++
		}
		l.mu.Unlock()
	})
	return l
}

// keepSending runs clients goroutines on wg, each calling send(c, i)
// for i = 0, 1, ... until stop is closed: the loads' clients.
func keepSending(wg *sync.WaitGroup, stop <-chan struct{}, clients int, send func(client, i int)) {
	for c := range clients {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				send(c, i)
			}
		})
	}
}

// acknowledged returns how many POSTs to base were answered 201 so far;
// "" counts every base.
func (l *postLoad) acknowledged(base string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if base == "" {
		return len(l.acked)
	}
	return l.ackedBy[base]
}

// finish stops the clients and waits for them.
func (l *postLoad) finish() {
	close(l.stop)
	l.wg.Wait()
}
