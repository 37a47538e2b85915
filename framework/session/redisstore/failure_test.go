package redisstore_test

// Redis out of reach: at Open, and while serving, through a proxy that the
// test cuts and restores (the engine itself keeps running).

import (
	"context"
	"github.com/springport/greeter/framework/component/sessiontest"
	"net"
	neturl "net/url"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/session/redisstore"
	"github.com/springport/greeter/framework/testing/clocktest"
	"github.com/springport/greeter/framework/testing/enginetest"

	"github.com/springport/greeter/framework/testing/polltest"
)

func TestOpenRefusesBadURLs(t *testing.T) {
	for _, raw := range []string{
		"redis://user:s3cret@127.0.0.1:port/0",    // url.Parse fails, and its error quotes the URL
		"redis://user:s3cret@127.0.0.1:6379/zero", // go-redis refuses the database
		"http://user:s3cret@127.0.0.1:6379/0",
		"redis://user:s3cret@127.0.0.1:6379/0?dial_timeout=soon", // an option go-redis cannot read
	} {
		_, err := redisstore.Open(t.Context(), redisstore.Options{URL: raw, ConnectTimeout: 100 * time.Millisecond, Timeout: 100 * time.Millisecond})
		if err == nil {
			t.Errorf("Open(%q) succeeded; want an error", raw)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Open(%q): %v; the error shows the password", raw, err)
		}
		if isOutage(err) {
			t.Errorf("Open(%q): %v; a bad URL is no outage: trying again will not help", raw, err)
		}
	}
}

// TestOpenUnreachable: Open of a closed port gives up by itself, within
// its timeouts (200ms each, 400ms in all), with an outage that names the
// address and not the password. The caller gives it polltest.Timeout, 25
// times that: Open must not be what runs it out, however busy the machine.
func TestOpenUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	ctx := ctxWithin(t, polltest.Timeout)
	start := time.Now()
	_, err = redisstore.Open(ctx, redisstore.Options{URL: "redis://user:s3cret@" + addr + "/0",
		ConnectTimeout: 200 * time.Millisecond, Timeout: 200 * time.Millisecond})
	if ctx.Err() != nil {
		t.Fatalf("Open of a closed port was still trying after %v (%v); want it to give up within its timeouts", time.Since(start), err)
	}
	if !isOutage(err) {
		t.Fatalf("Open of a closed port: %v; want an outage of Redis", err)
	}
	if msg := err.Error(); strings.Contains(msg, "s3cret") || !strings.Contains(msg, addr) {
		t.Errorf("Open: %q; want the address %s named and the password not", msg, addr)
	}
}

// TestOutageAndRecovery cuts the connection to Redis while the store
// serves: every call is an outage, and once Redis can be reached again the
// store serves again by itself.
func TestOutageAndRecovery(t *testing.T) {
	url, prefix := enginetest.Redis(t)
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	p := enginetest.NewProxy(t, u.Host)
	u.Host = p.Addr()
	clock := clocktest.New()
	s := openWithClock(t, redisstore.Options{URL: u.String(), Namespace: prefix, IdleTimeout: time.Hour,
		ConnectTimeout: 300 * time.Millisecond, Timeout: 300 * time.Millisecond}, clock.Now)
	id := sessiontest.Create(t, s)
	clock.Advance(2 * time.Hour) // so that Sweep asks Redis about it

	p.Cut()
	ctx := ctxWithin(t, 10*time.Second)
	_, createErr := s.Create(ctx)
	_, touchErr := s.Touch(ctx, id)
	_, _, loadErr := s.LoadState(ctx, id, "number")
	_, saveIfAbsentErr := s.SaveStateIfAbsent(ctx, id, "number", []byte("x"))
	saveErr := s.SaveState(ctx, id, "number", []byte("x"))
	_, pingErr := s.Ping(ctx)
	for name, err := range map[string]error{"Create": createErr, "Touch": touchErr, "LoadState": loadErr,
		"SaveStateIfAbsent": saveIfAbsentErr, "SaveState": saveErr, "Ping": pingErr} {
		if !isOutage(err) {
			t.Errorf("%s with Redis out of reach: %v; want an outage of Redis", name, err)
		}
	}
	if err := s.Sweep(ctx); !isOutage(err) {
		t.Errorf("Sweep with Redis out of reach: %v; want an outage of Redis", err)
	}

	p.Restore()
	var live bool
	polltest.Until(t, polltest.Timeout, "Touch to succeed after Redis came back", func() (err error) {
		live, err = s.Touch(ctx, id)
		return err
	})
	if !live {
		t.Errorf("after Redis came back, the session is not live")
	}
}

func TestCancelledCallerIsNoOutage(t *testing.T) {
	s := open(t, redisstore.Options{})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := s.Touch(ctx, sessiontest.Create(t, s))
	if err == nil || isOutage(err) {
		t.Errorf("Touch for a caller that gave up: %v; want an error that is no outage", err)
	}
}

func TestClosedStoreIsNoOutage(t *testing.T) {
	s := open(t, redisstore.Options{})
	id := sessiontest.Create(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Touch(t.Context(), id); err == nil || isOutage(err) || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Touch after Close: %v; want an error saying the store is closed, no outage", err)
	}
}

// TestOpenAuthenticatesAsTheURLsUser opens a store as an ACL user that
// the test creates: AUTH with the URL's user and password, and SELECT
// of its database, reach the real Redis; a wrong password is refused,
// and is no outage.
func TestOpenAuthenticatesAsTheURLsUser(t *testing.T) {
	server, prefix := enginetest.Redis(t)
	admin, err := redisstore.OpenRaw(server)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() }) // after the user's deletion: cleanups run last first
	user := strings.ReplaceAll(strings.TrimSuffix(prefix, ":"), ":", "-")
	if _, err := admin.Do(t.Context(), "ACL", "SETUSER", user, "on", ">s3cret", "~"+prefix+"*", "+@all"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := admin.Do(context.Background(), "ACL", "DELUSER", user); err != nil {
			t.Errorf("deleting the test's user %s: %v", user, err)
		}
	})

	u, err := neturl.Parse(server)
	if err != nil {
		t.Fatal(err)
	}
	db := "/1" // any database but the admin's
	if u.Path == db {
		db = "/2"
	}
	u.User, u.Path = neturl.UserPassword(user, "s3cret"), db
	s := open(t, redisstore.Options{URL: u.String(), Namespace: prefix, IdleTimeout: time.Hour})
	id := sessiontest.Create(t, s)
	if n, err := admin.Do(t.Context(), "EXISTS", s.Key(id)); err != nil || n != int64(0) {
		t.Errorf("the session is in the admin's database (EXISTS: %v, %v); want it in %s", n, err, db)
	}
	if err := s.Delete(t.Context(), id); err != nil {
		t.Errorf("Delete as %s: %v", user, err)
	}

	u.User = neturl.UserPassword(user, "wrong")
	_, err = redisstore.Open(t.Context(), redisstore.Options{URL: u.String(), ConnectTimeout: time.Second, Timeout: time.Second})
	if err == nil || isOutage(err) || strings.Contains(err.Error(), "wrong@") {
		t.Errorf("Open with a wrong password: %v; want it refused, no outage, the password not shown", err)
	}
}

// TestSilentRedisAnswersWithinTheTimeout: a Redis that accepts and never
// answers, at Open and while serving, is an outage within the store's
// timeout, whatever go-redis retries (max_retries=5 here: without the
// store's deadline, go-redis retries a script after its read timeout, on
// a new connection, and Create takes twice the timeout). The bounds are
// one timeout more than what the store allows (Open: the connection and
// the PING; a call: one timeout), which a retry reaches whatever the
// load: a busy machine breaks them only if it delays the answer by a
// whole second.
func TestSilentRedisAnswersWithinTheTimeout(t *testing.T) {
	// Not parallel: it times each call against its timeout.
	const timeout = time.Second
	const slack = timeout // what one retry adds

	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silent.Close() })
	go func() {
		var held []net.Conn // kept open, never answered
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	start := time.Now()
	_, err = redisstore.Open(t.Context(), redisstore.Options{URL: "redis://" + silent.Addr().String() + "/0?max_retries=5",
		ConnectTimeout: timeout, Timeout: timeout})
	if !isOutage(err) {
		t.Errorf("Open of a silent Redis: %v; want an outage of Redis", err)
	}
	// Open waits for the connection and then for the PING.
	if d := time.Since(start); d >= 2*timeout+slack {
		t.Errorf("Open of a silent Redis took %v; want at most %v", d, 2*timeout+slack)
	}

	url, prefix := enginetest.Redis(t)
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	p := enginetest.NewProxy(t, u.Host)
	u.Host = p.Addr()
	q := u.Query()
	q.Set("max_retries", "5")
	u.RawQuery = q.Encode()
	s := open(t, redisstore.Options{URL: u.String(), Namespace: prefix, IdleTimeout: time.Hour,
		ConnectTimeout: timeout, Timeout: timeout})
	id := sessiontest.Create(t, s)
	p.Hang()
	for name, op := range map[string]func() error{
		"Touch":     func() error { _, err := s.Touch(t.Context(), id); return err },
		"SaveState": func() error { return s.SaveState(t.Context(), id, "number", []byte("x")) },
		"Create":    func() error { _, err := s.Create(t.Context()); return err },
	} {
		start := time.Now()
		err := op()
		t.Logf("%s: %v %v", name, time.Since(start), err)
		if d := time.Since(start); d >= timeout+slack {
			t.Errorf("%s with Redis silent took %v; want at most %v", name, d, timeout+slack)
		}
		if !isOutage(err) {
			t.Errorf("%s with Redis silent: %v; want an outage of Redis", name, err)
		}
	}
}
