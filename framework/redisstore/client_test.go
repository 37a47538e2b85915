package redisstore

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/springport/greeter/framework/outage"
)

// fakeRedis is a server that speaks just enough RESP for the client's
// tests: it records every command, with the number of the connection that
// sent it, and answers each with what answer returns, raw RESP; an empty
// answer is none at all, as a server that hangs.
type fakeRedis struct {
	ln     net.Listener
	answer func(cmd string) string

	mu       sync.Mutex
	commands []string // "1 PING": connection 1 sent PING
	closed   []int    // connections the client closed
	conns    []net.Conn
}

func newFakeRedis(t *testing.T, answer func(cmd string) string) *fakeRedis {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeRedis{ln: ln, answer: answer}
	go f.serve()
	t.Cleanup(func() { ln.Close(); f.dropAll() })
	return f
}

// answerPing answers PING, and refuses anything else.
func answerPing(cmd string) string {
	if cmd == "PING" {
		return "+PONG\r\n"
	}
	return "-ERR unknown command\r\n"
}

func (f *fakeRedis) serve() {
	for n := 1; ; n++ {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		f.mu.Lock()
		f.conns = append(f.conns, c)
		f.mu.Unlock()
		go f.converse(n, c)
	}
}

func (f *fakeRedis) converse(n int, c net.Conn) {
	r := bufio.NewReader(c)
	defer func() {
		f.mu.Lock()
		f.closed = append(f.closed, n)
		f.mu.Unlock()
	}()
	for {
		reply, err := readReply(r)
		if err != nil {
			return
		}
		var words []string
		for _, w := range reply.([]any) {
			words = append(words, string(w.([]byte)))
		}
		cmd := strings.Join(words, " ")
		f.mu.Lock()
		f.commands = append(f.commands, fmt.Sprint(n, " ", cmd))
		f.mu.Unlock()
		if answer := f.answer(cmd); answer != "" {
			c.Write([]byte(answer))
		}
	}
}

// dropAll closes every connection from the server's side.
func (f *fakeRedis) dropAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.conns {
		c.Close()
	}
}

func (f *fakeRedis) sent() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.commands)
}

// waitClosed waits until connection n has been closed by the client.
func (f *fakeRedis) waitClosed(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		f.mu.Lock()
		closed := slices.Contains(f.closed, n)
		f.mu.Unlock()
		if closed {
			return
		}
	}
	t.Fatalf("connection %d is still open", n)
}

func (f *fakeRedis) url(userinfo, path string) string {
	return "redis://" + userinfo + f.ln.Addr().String() + path
}

// newTestClient is a client of the server at url with a pool of size.
func newTestClient(t *testing.T, url string, size int) *client {
	t.Helper()
	srv, err := parseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(srv, time.Second, size)
	t.Cleanup(func() { c.close() })
	return c
}

func within(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}

func TestParseURL(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want server
	}{
		{"redis://127.0.0.1:6379/0", server{addr: "127.0.0.1:6379"}},
		{"redis://redis.internal", server{addr: "redis.internal:6379"}},
		{"redis://", server{addr: "localhost:6379"}},
		{"redis://:6380/", server{addr: "localhost:6380"}},
		{"redis://[::1]:7000/15", server{addr: "[::1]:7000", db: 15}},
		{"redis://:s3cret@h/2", server{addr: "h:6379", password: "s3cret", db: 2}},
		{"redis://alice:s3cret@h", server{addr: "h:6379", user: "alice", password: "s3cret"}},
		{"redis://alice@h", server{addr: "h:6379", user: "alice"}},
	} {
		got, err := parseURL(tc.url)
		if err != nil || got != tc.want {
			t.Errorf("parseURL(%q) = %+v, %v; want %+v", tc.url, got, err, tc.want)
		}
	}
	tlsURL, err := parseURL("rediss://cache.example.com:6380/1")
	if err != nil || tlsURL.tls == nil || tlsURL.tls.ServerName != "cache.example.com" || tlsURL.addr != "cache.example.com:6380" {
		t.Errorf("parseURL(rediss://...) = %+v, %v; want TLS to cache.example.com", tlsURL, err)
	}
}

func TestParseURLRefuses(t *testing.T) {
	for _, tc := range []struct{ url, says string }{
		{"http://u:s3cret@h/0", `"http"`},
		{"redis://u:s3cret@h/zero", `"zero"`},
		{"redis://u:s3cret@h/-1", `"-1"`},
		{"redis://u:s3cret@h/0/1", "path"},
		{"redis://u:s3cret@h/0?pool_size=5&dial_timeout=1s", "dial_timeout, pool_size"},
		{"redis:u:s3cret@h", "redis://host"},
		{"redis://u:s3cret@h:port/0", "port"},
	} {
		_, err := parseURL(tc.url)
		if err == nil || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("parseURL(%q): %v; want an error saying %s, without the password", tc.url, err, tc.says)
		}
	}
}

func TestDialSendsAuthAndSelect(t *testing.T) {
	for _, tc := range []struct {
		userinfo, path string
		want           []string
	}{
		{"alice:s3cret@", "/3", []string{"1 AUTH alice s3cret", "1 SELECT 3", "1 PING"}},
		{":s3cret@", "", []string{"1 AUTH s3cret", "1 PING"}},
		{"alice@", "/0", []string{"1 PING"}}, // no password, no AUTH: as go-redis
		{"", "/", []string{"1 PING"}},
	} {
		f := newFakeRedis(t, func(cmd string) string {
			if cmd == "PING" {
				return "+PONG\r\n"
			}
			return "+OK\r\n"
		})
		c := newTestClient(t, f.url(tc.userinfo, tc.path), 1)
		if _, err := c.do(t.Context(), "PING"); err != nil {
			t.Fatal(err)
		}
		if got := f.sent(); !slices.Equal(got, tc.want) {
			t.Errorf("with %q%q the server got %q; want %q", tc.userinfo, tc.path, got, tc.want)
		}
	}
}

// TestRefusedCredentialsAreNoOutage: a wrong password is the operator's to
// fix; trying again will not help.
func TestRefusedCredentialsAreNoOutage(t *testing.T) {
	f := newFakeRedis(t, func(string) string { return "-WRONGPASS invalid username-password pair\r\n" })
	c := newTestClient(t, f.url("alice:wrong@", ""), 1)
	_, err := c.do(t.Context(), "PING")
	if _, ok := errors.AsType[replyError](err); !ok || isOutage(failure(err)) {
		t.Errorf("PING with a wrong password: %v; want the error reply, no outage", err)
	}
	f.waitClosed(t, 1)
}

func TestIdleConnectionIsReused(t *testing.T) {
	f := newFakeRedis(t, answerPing)
	c := newTestClient(t, f.url("", ""), 2)
	for range 3 {
		if _, err := c.do(t.Context(), "PING"); err != nil {
			t.Fatal(err)
		}
	}
	// An error reply leaves the connection in step: it is reused too.
	if _, err := c.do(t.Context(), "NOPE"); err == nil {
		t.Fatal("an unknown command succeeded")
	}
	c.do(t.Context(), "PING")
	if got, want := f.sent(), []string{"1 PING", "1 PING", "1 PING", "1 NOPE", "1 PING"}; !slices.Equal(got, want) {
		t.Errorf("the server got %q; want %q on one connection", got, want)
	}
}

// TestFailedConnectionIsNotReused lets a command's deadline pass, and
// another's caller give up, while the server has not answered: each
// connection is closed, as its reply may still come, and the next command
// goes on a new one.
func TestFailedConnectionIsNotReused(t *testing.T) {
	f := newFakeRedis(t, func(cmd string) string {
		if cmd == "HANG" {
			return ""
		}
		return answerPing(cmd)
	})
	c := newTestClient(t, f.url("", ""), 1)

	start := time.Now()
	_, err := c.do(within(t, 100*time.Millisecond), "HANG")
	if !errors.Is(err, context.DeadlineExceeded) || !isOutage(failure(err)) {
		t.Errorf("a command past its deadline: %v; want the deadline exceeded, an outage", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a command with a deadline of 100ms took %v", d)
	}
	f.waitClosed(t, 1)

	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = c.do(ctx, "HANG") // no deadline: only the cancellation ends it
	if !errors.Is(err, context.Canceled) || isOutage(failure(err)) {
		t.Errorf("a command whose caller gave up: %v; want it cancelled, no outage", err)
	}
	f.waitClosed(t, 2)

	if _, err := c.do(t.Context(), "PING"); err != nil {
		t.Fatal(err)
	}
	if got, want := f.sent(), []string{"1 HANG", "2 HANG", "3 PING"}; !slices.Equal(got, want) {
		t.Errorf("the server got %q; want %q", got, want)
	}
}

// TestWaitingForAConnectionEndsWithTheContext fills the pool: a command
// waits for a connection until its context ends, and gets one once a
// connection is put back.
func TestWaitingForAConnectionEndsWithTheContext(t *testing.T) {
	f := newFakeRedis(t, answerPing)
	c := newTestClient(t, f.url("", ""), 1)
	held, err := c.get(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.do(within(t, 50*time.Millisecond), "PING"); !errors.Is(err, context.DeadlineExceeded) || !isOutage(failure(err)) {
		t.Errorf("waiting past the deadline for a full pool: %v; want the deadline exceeded, an outage", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := c.do(ctx, "PING"); !errors.Is(err, context.Canceled) {
		t.Errorf("giving up waiting for a full pool: %v; want it cancelled", err)
	}
	time.AfterFunc(50*time.Millisecond, func() { c.put(held) })
	if _, err := c.do(within(t, 5*time.Second), "PING"); err != nil {
		t.Errorf("waiting for a connection put back: %v", err)
	}
	if got := f.sent(); !slices.Equal(got, []string{"1 PING"}) {
		t.Errorf("the server got %q; want one PING, on the one connection", got)
	}
}

// TestConnectionClosedByTheServerIsReplaced: an idle connection that the
// server closed (a restart) is noticed before use, and replaced.
func TestConnectionClosedByTheServerIsReplaced(t *testing.T) {
	f := newFakeRedis(t, answerPing)
	c := newTestClient(t, f.url("", ""), 1)
	if _, err := c.do(t.Context(), "PING"); err != nil {
		t.Fatal(err)
	}
	f.dropAll()
	f.waitClosed(t, 1)
	if _, err := c.do(t.Context(), "PING"); err != nil {
		t.Errorf("PING after the server closed the idle connection: %v", err)
	}
	if got, want := f.sent(), []string{"1 PING", "2 PING"}; !slices.Equal(got, want) {
		t.Errorf("the server got %q; want %q", got, want)
	}
}

func TestClosedClient(t *testing.T) {
	f := newFakeRedis(t, answerPing)
	c := newTestClient(t, f.url("", ""), 1)
	held, err := c.get(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan error)
	go func() {
		_, err := c.do(t.Context(), "PING")
		waiting <- err
	}()
	time.Sleep(20 * time.Millisecond)
	c.close()
	if err := <-waiting; !errors.Is(err, errClosed) {
		t.Errorf("a command waiting for a connection when the client closed: %v; want %v", err, errClosed)
	}
	c.put(held)
	f.waitClosed(t, 1)
	if _, err := c.do(t.Context(), "PING"); !errors.Is(err, errClosed) || isOutage(failure(err)) {
		t.Errorf("a command after close: %v; want %v, no outage", err, errClosed)
	}
}

func TestScriptFallsBackToEval(t *testing.T) {
	s := newScript("return 1")
	f := newFakeRedis(t, func(cmd string) string {
		if strings.HasPrefix(cmd, "EVALSHA ") {
			return "-NOSCRIPT No matching script. Please use EVAL.\r\n"
		}
		return ":1\r\n"
	})
	c := newTestClient(t, f.url("", ""), 1)
	if n, err := integer(c.run(t.Context(), s, "k", "a")); n != 1 || err != nil {
		t.Fatalf("run: %d, %v", n, err)
	}
	want := []string{"1 EVALSHA e0e1f9fabfc9d4800c877a703b823ac0578ff8db 1 k a", "1 EVAL return 1 1 k a"}
	if got := f.sent(); !slices.Equal(got, want) {
		t.Errorf("the server got %q; want %q", got, want)
	}
}

func TestPipelineRepliesInOrder(t *testing.T) {
	f := newFakeRedis(t, func(cmd string) string {
		if cmd == "EXISTS b" {
			return ":0\r\n"
		}
		return ":1\r\n"
	})
	c := newTestClient(t, f.url("", ""), 1)
	replies, err := c.pipeline(t.Context(), []any{"EXISTS", "a"}, []any{"EXISTS", "b"}, []any{"EXISTS", "c"})
	if err != nil || !slices.Equal(replies, []any{int64(1), int64(0), int64(1)}) {
		t.Errorf("pipeline = %v, %v; want [1 0 1]", replies, err)
	}
}

func TestFailure(t *testing.T) {
	for _, tc := range []struct {
		err    error
		outage bool
	}{
		{replyError("LOADING Redis is loading the dataset in memory"), true},
		{replyError("READONLY You can't write against a read only replica."), true},
		{replyError("MASTERDOWN Link with MASTER is down"), true},
		{replyError("CLUSTERDOWN The cluster is down"), true},
		{replyError("TRYAGAIN Multiple keys request during rehashing of slot"), true},
		{replyError("ERR max number of clients reached"), true},
		{replyError("OOM command not allowed when used memory > 'maxmemory'."), true},
		{replyError("NOREPLICAS Not enough good replicas to write."), true},
		{replyError("BUSY Redis is busy running a script."), true},
		{replyError("WRONGTYPE Operation against a key holding the wrong kind of value"), false},
		{replyError("ERR syntax error"), false},
		{replyError("WRONGPASS invalid username-password pair"), false},
		{errClosed, false},
		{context.Canceled, false},
		{context.DeadlineExceeded, true},
		{fmt.Errorf("%w: integer", errProtocol), true},
		{&net.OpError{Op: "dial", Err: errors.New("connection refused")}, true},
	} {
		if got := isOutage(failure(tc.err)); got != tc.outage {
			t.Errorf("failure(%v) is an outage: %t; want %t", tc.err, got, tc.outage)
		}
	}
}

func isOutage(err error) bool {
	_, ok := errors.AsType[*outage.Error](err)
	return ok
}

// TestUnsolicitedReplyIsNotPooled: a server that sends a reply no command
// asked for is out of step with the connection, which would answer each
// later command with the reply of the one before; it is not used again.
func TestUnsolicitedReplyIsNotPooled(t *testing.T) {
	f := newFakeRedis(t, func(cmd string) string {
		switch cmd {
		case "PING":
			return "+PONG\r\n:666\r\n"
		case "GET k":
			return "$1\r\nv\r\n"
		}
		return answerPing(cmd)
	})
	c := newTestClient(t, f.url("", ""), 1)
	if _, err := c.do(t.Context(), "PING"); err != nil {
		t.Fatal(err)
	}
	got, err := c.do(t.Context(), "GET", "k")
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := got.([]byte); !ok || string(v) != "v" {
		t.Errorf("GET after an unsolicited reply answered %v; want v", got)
	}
	if got, want := f.sent(), []string{"1 PING", "2 GET k"}; !slices.Equal(got, want) {
		t.Errorf("the server got %q; want %q", got, want)
	}
}

// TestUnsupportedArgumentFreesItsPlace: an argument of a type a command
// cannot carry is an error, not a panic, and the connection's place in
// the pool is freed.
func TestUnsupportedArgumentFreesItsPlace(t *testing.T) {
	f := newFakeRedis(t, answerPing)
	c := newTestClient(t, f.url("", ""), 1)
	if _, err := c.do(t.Context(), "EXPIRE", "k", 10); err == nil {
		t.Error("a command with an int argument succeeded")
	}
	if _, err := c.do(within(t, 2*time.Second), "PING"); err != nil {
		t.Errorf("PING after a refused command, with a pool of one: %v", err)
	}
}

// TestNegativeOptionsMeanTheDefaults: a bound or an interval below zero
// has no meaning; it is taken as unset rather than breaking the store
// (a ticker panics at a negative interval).
func TestNegativeOptionsMeanTheDefaults(t *testing.T) {
	s := newStore(nil, Options{MaxSessions: -1, SweepInterval: -time.Second, IdleTimeout: 2 * time.Minute}, time.Second, time.Now)
	if s.max != 100_000 || s.sweepEvery != time.Minute {
		t.Errorf("MaxSessions -1 and SweepInterval -1s gave %d and %v; want 100000 and 1m0s", s.max, s.sweepEvery)
	}
}
