package main

// The end-to-end tests start the whole program, through run on port 0
// (start) or as a child process (startProcess), and talk to it over
// loopback as a client would. This file holds what they share: the
// program's output, waiting for something the program does (never for a
// fixed time), and the request helper that checks every answer against
// the service's OpenAPI document.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/springport/greeter/internal/logtest"
)

// waitTimeout bounds every wait for the program to do something. It is
// generous: the program does these things in milliseconds, but the tests
// must pass under the race detector on a busy machine.
const waitTimeout = 10 * time.Second

// poll calls cond until it holds or waitTimeout passes, and reports
// whether it held.
func poll(cond func() bool) bool {
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// waitFor waits until cond holds, and fails the test, saying what it
// waited for, when it does not within waitTimeout.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if !poll(cond) {
		t.Fatalf("after %v, still waiting for %s", waitTimeout, what)
	}
}

// waitRefused waits until addr refuses connections: its listener has
// closed.
func waitRefused(t *testing.T, addr string) {
	t.Helper()
	waitFor(t, "the listener to close (new connections refused)", func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return false
		}
		return isConnRefused(err)
	})
}

// program is one running instance of the program: its output, and its end.
type program struct {
	stdout, stderr *logtest.Buffer
	exited         chan struct{} // closed when the program has ended
	err            error         // how it ended, once exited is closed
}

func newProgram() *program {
	return &program{stdout: &logtest.Buffer{}, stderr: &logtest.Buffer{}, exited: make(chan struct{})}
}

// waitForLog waits until the program's stdout has a line that matches re,
// and returns the first match's submatches. It fails the test when the
// program ends first, or when no line matches within waitTimeout.
func (p *program) waitForLog(t *testing.T, re *regexp.Regexp) []string {
	t.Helper()
	var m []string
	ended := false
	poll(func() bool {
		if m = re.FindStringSubmatch(p.stdout.String()); m != nil {
			return true
		}
		select {
		case <-p.exited:
			m, ended = re.FindStringSubmatch(p.stdout.String()), true
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
			p.err, re, tail(p.stdout.String(), 20), p.stderr)
	default:
		t.Fatalf("no line that matches %s within %v; stdout ends:\n%s", re, waitTimeout, tail(p.stdout.String(), 20))
	}
	return nil
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// startedAddr finds the port in the "started" line, in the text or the
// JSON log format.
var startedAddr = regexp.MustCompile(`(?:msg=started addr=|"msg":"started","addr":")[^\s"]*:(\d+)`)

// service is the program running in the test's process, through run.
type service struct {
	*program
	base   string // http://127.0.0.1:PORT
	cancel context.CancelFunc
}

// start runs the program on a free port with the given arguments and
// environment, waits until it listens, and stops it when the test ends.
func start(t *testing.T, args []string, env map[string]string) *service {
	t.Helper()
	return launch(t, append([]string{"--server.port=0"}, args...), env)
}

// launch is start with exactly the given arguments: they must choose a
// free port themselves.
func launch(t *testing.T, args []string, env map[string]string) *service {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &service{program: newProgram(), cancel: cancel}
	go func() {
		s.err = run(ctx, args, mapLookup(env), s.stdout, s.stderr)
		close(s.exited)
	}()
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Errorf("run returned %v; stderr:\n%s", err, s.stderr)
		}
	})
	s.base = "http://127.0.0.1:" + s.waitForLog(t, startedAddr)[1]
	return s
}

// mapLookup looks variables up in env: a variable in env is set, even to
// the empty string.
func mapLookup(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}
}

// stop cancels run's context and returns what run returned.
func (s *service) stop() error {
	s.cancel()
	select {
	case <-s.exited:
		return s.err
	case <-time.After(waitTimeout):
		return fmt.Errorf("run did not return within %v of cancellation", waitTimeout)
	}
}

// addr returns the service's host:port, for raw TCP clients.
func (s *service) addr() string { return strings.TrimPrefix(s.base, "http://") }

// failToStart runs the program with arguments and an environment that
// must keep it from starting, and returns what run returned and what it
// wrote to stderr. Should a regression let it start, a deadline stops it.
func failToStart(t *testing.T, args []string, env map[string]string) (stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	var out, errOut logtest.Buffer
	err = run(ctx, args, mapLookup(env), &out, &errOut)
	return errOut.String(), err
}

// programCommand is the command that runs this test binary as the program
// (see TestMain) with the given arguments.
func programCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "GREETER_AS_MAIN=1")
	return cmd
}

// process is the program running as a child process, as it runs in
// production, so that it can be sent signals.
type process struct {
	*program
	base string // http://127.0.0.1:PORT
	cmd  *exec.Cmd
}

// startProcess runs the program as a child process on a free port, waits
// until it listens, and kills it when the test ends if it still runs.
func startProcess(t *testing.T, args ...string) *process {
	t.Helper()
	p := &process{program: newProgram(), cmd: programCommand(append([]string{"--server.port=0"}, args...)...)}
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			p.cmd.Process.Kill()
			<-p.exited
		}
	})
	p.base = "http://127.0.0.1:" + p.waitForLog(t, startedAddr)[1]
	return p
}

// addr returns the process's host:port, for raw TCP clients.
func (p *process) addr() string { return strings.TrimPrefix(p.base, "http://") }

// signal sends sig to the process.
func (p *process) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

// wait waits for the process to exit, and returns how it exited; it fails
// the test, killing the process, when it does not exit within waitTimeout.
func (p *process) wait(t *testing.T) error {
	t.Helper()
	select {
	case <-p.exited:
		return p.err
	case <-time.After(waitTimeout):
		p.cmd.Process.Kill()
		<-p.exited
		t.Fatalf("the program did not exit within %v; stdout ends:\n%s", waitTimeout, tail(p.stdout.String(), 20))
		return nil
	}
}

// response is one answer of the service, with its body read.
type response struct {
	request string // "METHOD /path", for messages
	status  int
	header  http.Header
	body    string
}

// do sends one request; headers are "Name: value" strings. The answer
// must be one the service's OpenAPI document allows (see checkContract).
func (s *service) do(t *testing.T, method, path, body string, headers ...string) response {
	t.Helper()
	return s.doWith(t, http.DefaultClient, method, path, body, headers...)
}

// doWith is do with a client of the test's own, such as one with cookies.
func (s *service) doWith(t *testing.T, client *http.Client, method, path, body string, headers ...string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	// Every answer must be what the service's own OpenAPI document says.
	checkContract(t, s, resp.Request, []byte(body), resp.StatusCode, resp.Header, b)
	return response{request: method + " " + path, status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// decodeJSON decodes r's body into a T, and fails the test when it cannot.
func decodeJSON[T any](t *testing.T, r response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(r.body), &v); err != nil {
		t.Fatalf("%s: answered %d with a body that is not the JSON expected: %v\n%.300s", r.request, r.status, err, r.body)
	}
	return v
}
