package boot_test

// A flood of requests that never send the session cookie back, through
// run: past server.servlet.session.max-sessions it ends its own sessions,
// never those of users whose cookie has come back.

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestCookielessFloodKeepsReturningSessions: users whose cookie came back
// at least once keep their sessions (and their session-scoped counters)
// through many times max-sessions cookieless requests; a session whose
// cookie never came back ends; the store holds max-sessions at most.
// GREETER_SESSION_FLOOD sets the flood's size (the 200,000, say);
// it is 20 times the cap otherwise.
func TestCookielessFloodKeepsReturningSessions(t *testing.T) {
	t.Parallel()
	const maxSessions = 100
	flood := 20 * maxSessions
	if n, err := strconv.Atoi(os.Getenv("GREETER_SESSION_FLOOD")); err == nil && n > 0 {
		flood = n
	}
	s := start(t, []string{"--server.servlet.session.max-sessions=" + strconv.Itoa(maxSessions),
		"--management.endpoints.web.exposure.include=prometheus"}, nil)

	// count posts /count with the session cookie cookie (none when
	// empty) and returns the session's count and the cookie it now has.
	count := func(client *http.Client, cookie string) (int, string) {
		t.Helper()
		var headers []string
		if cookie != "" {
			headers = append(headers, "Cookie: SESSION="+cookie)
		}
		r := send(t, client, "POST", s.URL+"/count", "", headers...)
		n, err := strconv.Atoi(r.body)
		if r.status != 200 || err != nil {
			t.Fatalf("POST /count: %d %s", r.status, r.body)
		}
		if c := r.header.Get("Set-Cookie"); c != "" {
			cookie = regexp.MustCompile(`^SESSION=([^;]*)`).FindStringSubmatch(c)[1]
		}
		return n, cookie
	}
	// Two users who came back, one of them long before the flood, and one
	// who never did.
	_, early := count(nil, "")
	count(nil, early)
	_, never := count(nil, "")
	_, recent := count(nil, "")
	count(nil, recent)

	began := time.Now()
	var sent atomic.Int64
	var wg sync.WaitGroup
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	for range 8 {
		wg.Go(func() {
			for sent.Add(1) <= int64(flood) {
				resp, err := client.Post(s.URL+"/count", "", nil)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				if resp.StatusCode != 200 || resp.Header.Get("Set-Cookie") == "" {
					t.Errorf("a cookieless POST /count: %d, Set-Cookie %q; want 200 and a new session", resp.StatusCode, resp.Header.Get("Set-Cookie"))
					return
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d cookieless requests in %v", flood, time.Since(began).Round(time.Millisecond))

	for _, u := range []struct {
		name, cookie string
		want         int
	}{{"early", early, 3}, {"recent", recent, 3}} {
		if n, cookie := count(nil, u.cookie); n != u.want || cookie != u.cookie {
			t.Errorf("the %s returning user counts %d with session %q; want %d in their own session %q", u.name, n, cookie, u.want, u.cookie)
		}
	}
	if n, cookie := count(nil, never); n != 1 || cookie == never {
		t.Errorf("the session whose cookie never came back counts %d (session %q); want it ended by the flood, and a new one at 1", n, cookie)
	}
	metrics := send(t, nil, "GET", s.URL+"/actuator/prometheus", "").body
	for _, want := range []string{
		fmt.Sprintf(`http_sessions_active %d`, maxSessions),
		fmt.Sprintf(`http_sessions_evicted_total %d`, flood+4-maxSessions),
	} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(want) + `$`).MatchString(metrics) {
			t.Errorf("/actuator/prometheus lacks %s:\n%s", want, regexp.MustCompile(`(?m)^http_sessions.*$`).FindAllString(metrics, -1))
		}
	}
}
