// Package boottest runs a service built on boot inside a test, as its
// users run it: the whole program through boot.Run, on free ports, talked
// to over loopback. Start runs it in the test's process; StartProcess runs
// the test binary itself as the program, so that a test can send it
// signals. Every wait is for something the program does, bounded by
// Timeout, never a fixed sleep.
//
//	func TestHello(t *testing.T) {
//		t.Parallel()
//		s := boottest.Start(t, service, nil, nil)
//		resp, err := http.Get(s.URL + "/hello")
//		...
//	}
package boottest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/server"
	"github.com/springport/greeter/framework/testing/logtest"

	"github.com/springport/greeter/framework/testing/polltest"
)

// Timeout bounds every wait for the program to do something. It is
// generous: the program does these things in milliseconds, but tests must
// pass under the race detector on a busy machine.
const Timeout = polltest.Timeout

// Poll calls cond until it holds or Timeout passes, and reports whether
// it held (polltest.Poll).
func Poll(cond func() bool) bool { return polltest.Poll(Timeout, cond) }

// WaitFor waits until cond holds, and fails the test, saying what it
// waited for, when it does not within Timeout (polltest.WaitFor).
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	polltest.WaitFor(t, what, cond)
}

// WaitRefused waits until addr refuses connections: its listener has
// closed.
func WaitRefused(t testing.TB, addr string) {
	t.Helper()
	WaitFor(t, "the listener of "+addr+" to close (new connections refused)", func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return false
		}
		return IsConnRefused(err)
	})
}

// IsConnRefused reports whether err is a refused connection.
func IsConnRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

// Response is one answer of the service, its body read.
type Response struct {
	Request *http.Request // the request as sent, for checks of the pair
	Status  int
	Header  http.Header
	Body    string
}

// Send sends one request with client (http.DefaultClient when nil) and
// reads the answer, failing the test when none comes. body is sent when
// not empty; headers are "Name: value" strings.
func Send(t testing.TB, client *http.Client, method, url, body string, headers ...string) Response {
	t.Helper()
	if client == nil {
		client = http.DefaultClient
	}
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	return Response{Request: req, Status: resp.StatusCode, Header: resp.Header, Body: string(b)}
}

// Output is what a program writes to stdout or stderr: safe to read while
// the program is still writing it, from any goroutine.
type Output = logtest.Buffer

// Program is one running program: its output, and its end.
type Program struct {
	Stdout, Stderr *Output
	exited         chan struct{} // closed when the program has ended
	err            error         // how it ended, once exited is closed
}

func newProgram() *Program {
	return &Program{Stdout: &Output{}, Stderr: &Output{}, exited: make(chan struct{})}
}

// Exited is closed when the program has ended.
func (p *Program) Exited() <-chan struct{} { return p.exited }

// Err is how the program ended: what boot.Run returned, or for a process
// its exit status. It is valid once Exited is closed.
func (p *Program) Err() error {
	<-p.exited
	return p.err
}

// WaitForLog waits until the program's stdout has a line that matches re,
// and returns the first match's submatches. It fails the test when the
// program ends first, or when no line matches within Timeout.
func (p *Program) WaitForLog(t testing.TB, re *regexp.Regexp) []string {
	t.Helper()
	var m []string
	ended := false
	Poll(func() bool {
		if m = re.FindStringSubmatch(p.Stdout.String()); m != nil {
			return true
		}
		select {
		case <-p.exited:
			m, ended = re.FindStringSubmatch(p.Stdout.String()), true
			return true
		default:
			return false
		}
	})
	switch {
	case m != nil:
		return m
	case ended:
		t.Fatalf("the program ended (%v) before logging a line that matches %s; stdout ends:\n%s\nstderr:\n%s",
			p.err, re, Tail(p.Stdout.String(), 20), p.Stderr)
	default:
		t.Fatalf("no line that matches %s within %v; stdout ends:\n%s", re, Timeout, Tail(p.Stdout.String(), 20))
	}
	return nil
}

// Tail returns the last n lines of s.
func Tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// StartedAddr finds the port in the line boot logs once it listens on
// server.port, Spring's "Started <service> in 0.412 seconds (process
// running for 0.530)" with the address after it (addr= in text, "addr"
// in JSON, ECS and Logstash lines, "_addr" in GELF's): how StartProcess
// learns the port of a child process.
var StartedAddr = regexp.MustCompile(`Started \S+ in [0-9.]+ seconds \(process running for [0-9.]+\).*?\b_?addr"?[=:]"?[^\s"]*:(\d+)`)

// Instance is a service running in the test's process, through boot.Run.
type Instance struct {
	*Program
	URL string // http://127.0.0.1:PORT, server.port (server.address's, when set)
	// ManagementURL is http://127.0.0.1:PORT of management.server.port
	// when the management endpoints have a port of their own; else URL.
	ManagementURL string
	// Addresses are the listeners as Run reported them
	// (boot.Process.Listening), with the addresses they are bound to.
	Addresses []server.Address
	cancel    context.CancelFunc
	stopped   atomic.Bool // the test called Stop
	// flush sends the spans queued (boot.Process.SpanFlush); set by Run
	// before it listens, so before Launch returns.
	flush func(context.Context) error
}

// Start runs svc on a free port with the given arguments and environment
// variables, waits until it listens, and stops it when the test ends,
// failing the test if it did not stop cleanly.
func Start[S any](t testing.TB, svc boot.Service[S], args []string, env map[string]string) *Instance {
	t.Helper()
	return Launch(t, svc, onFreePort(args), env)
}

// onFreePort is args with --server.port=0 first, unless they set
// server.port themselves: a repeated argument joins its values (0,8080),
// as in Spring, rather than the later one winning.
func onFreePort(args []string) []string {
	for _, a := range args {
		if strings.HasPrefix(a, "--server.port=") {
			return args
		}
	}
	return append([]string{"--server.port=0"}, args...)
}

// Launch is Start with exactly the given arguments: they must choose a
// free port themselves. It learns the ports from Run itself
// (boot.Process.Listening), so a service that logs nothing at INFO is found
// too.
func Launch[S any](t testing.TB, svc boot.Service[S], args []string, env map[string]string) *Instance {
	t.Helper()
	listening := make(chan []server.Address, 1)
	ctx, cancel := context.WithCancel(context.Background())
	s := &Instance{Program: newProgram(), cancel: cancel}
	p := Inputs(args, env)
	p.Stdout, p.Stderr = s.Stdout, s.Stderr
	p.Listening = func(addrs []server.Address) { listening <- addrs }
	p.SpanFlush = func(flush func(context.Context) error) { s.flush = flush }
	go func() {
		s.err = boot.Run(ctx, svc, p)
		close(s.exited)
	}()
	t.Cleanup(func() {
		// A test that called Stop has checked what Run returned itself.
		if err := s.stop(); err != nil && !s.stopped.Load() {
			t.Errorf("boot.Run returned %v; stderr:\n%s", err, s.Stderr)
		}
	})
	select {
	case addrs := <-listening:
		s.Addresses = addrs
		for _, a := range addrs {
			url := "http://" + dialAddr(a.Addr.(*net.TCPAddr))
			if a.Setting == "management.server.port" {
				s.ManagementURL = url
			} else {
				s.URL = url
			}
		}
		if s.ManagementURL == "" {
			s.ManagementURL = s.URL
		}
	case <-s.exited:
		t.Fatalf("boot.Run returned %v before listening; stderr:\n%s\nstdout ends:\n%s", s.err, s.Stderr, Tail(s.Stdout.String(), 20))
	case <-time.After(Timeout):
		t.Fatalf("boot.Run did not listen within %v; stdout ends:\n%s", Timeout, Tail(s.Stdout.String(), 20))
	}
	return s
}

// dialAddr is the host:port a client reaches a listener at: loopback for
// one on every interface, else the address it listens on
// (server.address).
func dialAddr(a *net.TCPAddr) string {
	host := "127.0.0.1"
	if !a.IP.IsUnspecified() {
		host = a.IP.String()
	}
	return net.JoinHostPort(host, strconv.Itoa(a.Port))
}

// Stop cancels Run's context, as SIGTERM would, and returns what Run
// returned; the test then judges it (Start's clean-up no longer does).
func (s *Instance) Stop() error {
	s.stopped.Store(true)
	return s.stop()
}

func (s *Instance) stop() error {
	s.cancel()
	select {
	case <-s.exited:
		return s.err
	case <-time.After(Timeout):
		return fmt.Errorf("boot.Run did not return within %v of cancellation", Timeout)
	}
}

// FlushSpans sends the spans the service has queued to its collector at
// once, and returns when they are sent or given up on (an error from the
// collector is returned): a test that checks the spans of its requests
// then need not wait out the batch's delay of 5 s. The span of a request
// is queued when its handler returns, which may be just after the client
// has the answer: a test polls, flushing, until the spans it wants are
// there (see WaitFor). It does nothing when spans are not recorded.
func (s *Instance) FlushSpans() error {
	if s.flush == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	return s.flush(ctx)
}

// Addr is the instance's host:port, for raw TCP clients.
func (s *Instance) Addr() string { return strings.TrimPrefix(s.URL, "http://") }

// FailToStart runs svc with arguments and an environment that must keep
// it from starting, and returns what Run returned and what it wrote to
// stderr. Should a regression let it start, a deadline stops it.
func FailToStart[S any](t testing.TB, svc boot.Service[S], args []string, env map[string]string) (stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	var out, errOut Output
	p := Inputs(args, env)
	p.Stdout, p.Stderr = &out, &errOut
	err = boot.Run(ctx, svc, p)
	return errOut.String(), err
}

// Inputs is a boot.Process with the given arguments and environment
// variables (nil sets none), whose output is discarded until the caller
// sets Stdout and Stderr: what a test gives boot.Run and boot.New.
func Inputs(args []string, env map[string]string) boot.Process {
	return boot.Process{Args: args, LookupEnv: Env(env), VariableNames: variableNames(env)}
}

// Env looks variables up in vars: a variable in vars is set, even to the
// empty string; nil sets none.
func Env(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	}
}

// variableNames lists the variables of vars, as boot.Main lists the
// process's (boot.Process.VariableNames), so that a variable nothing reads
// is warned about as it would be in production.
func variableNames(vars map[string]string) func() []string {
	return func() []string { return slices.Collect(maps.Keys(vars)) }
}

// asMain is the variable that makes the test binary run the program.
const asMain = "BOOTTEST_AS_MAIN"

// RunAsMain runs main, and exits, when this test binary was started as
// the program by Command or StartProcess. Call it first in TestMain:
//
//	func TestMain(m *testing.M) {
//		boottest.RunAsMain(main)
//		os.Exit(m.Run())
//	}
func RunAsMain(main func()) {
	if os.Getenv(asMain) == "1" {
		main()
		os.Exit(0)
	}
}

// Command is the command that runs this test binary as the program (see
// RunAsMain) with the given arguments.
func Command(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asMain+"=1")
	return cmd
}

// Process is the program running as a child process, as it runs in
// production, so that it can be sent signals.
type Process struct {
	*Program
	URL string // http://127.0.0.1:PORT, server.port
	Cmd *exec.Cmd
}

// StartProcess runs the program as a child process on a free port, waits
// until it listens, and kills it when the test ends if it still runs.
func StartProcess(t testing.TB, args ...string) *Process {
	t.Helper()
	p := &Process{Program: newProgram(), Cmd: Command(onFreePort(args)...)}
	p.Cmd.Stdout, p.Cmd.Stderr = p.Stdout, p.Stderr
	if err := p.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.Cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			p.Cmd.Process.Kill()
			<-p.exited
		}
	})
	p.URL = "http://127.0.0.1:" + p.WaitForLog(t, StartedAddr)[1]
	return p
}

// Addr is the process's host:port, for raw TCP clients.
func (p *Process) Addr() string { return strings.TrimPrefix(p.URL, "http://") }

// Signal sends sig to the process.
func (p *Process) Signal(t testing.TB, sig syscall.Signal) {
	t.Helper()
	if err := p.Cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

// Wait waits for the process to exit, and returns how it exited; it fails
// the test, killing the process, when it does not exit within Timeout.
func (p *Process) Wait(t testing.TB) error {
	t.Helper()
	select {
	case <-p.exited:
		return p.err
	case <-time.After(Timeout):
		p.Cmd.Process.Kill()
		<-p.exited
		t.Fatalf("the program did not exit within %v; stdout ends:\n%s", Timeout, Tail(p.Stdout.String(), 20))
		return nil
	}
}
