package conformance_test

// The applications compared, each a process the test starts on a free
// loopback port and stops when it ends: greeter (greeter_test.go) and the
// Spring reference application's jars (spring_test.go).

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/testing/logtest"
)

// app is a running application.
type app struct {
	name    string        // greeter, boot4, boot35
	URL     string        // http://127.0.0.1:port
	Started time.Duration // from exec to the port's log line
	log     *logtest.Buffer
	port    chan string   // the port, once logged
	done    chan struct{} // closed when its output ends
	begin   time.Time
}

// startLimit bounds the wait for an application's port: a JVM starting
// Spring Boot takes 8 to 15 s here, longer when several start at once on
// two cores beside other tests.
const startLimit = 3 * time.Minute

// launchProcess starts name's program with argv, with the environment
// less the variables with the given prefixes (so that the machine's
// settings do not reach it), reads its output for the line portLine
// matches (its first group is the port), and stops it (SIGINT) when the
// test ends, showing its output if the test failed.
func launchProcess(t *testing.T, name, program string, argv, dropVariables []string, portLine *regexp.Regexp) *app {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, program, argv...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 20 * time.Second
	for _, kv := range os.Environ() {
		drop := false
		for _, p := range dropVariables {
			drop = drop || strings.HasPrefix(strings.ToUpper(kv), p)
		}
		if !drop {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	a := &app{name: name, log: &logtest.Buffer{}, port: make(chan string, 1), done: make(chan struct{}), begin: time.Now()}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	go func() {
		defer close(a.done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(a.log, line)
			if m := portLine.FindStringSubmatch(line); m != nil {
				select {
				case a.port <- m[1]:
				default:
				}
			}
		}
		_, _ = io.Copy(a.log, out)
	}()
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		<-a.done
		if t.Failed() {
			t.Logf("%s's output:\n%s", name, a.log)
		}
	})
	return a
}

// waitListening waits until the application logs its port, and fails the
// test if it ends first or takes longer than startLimit.
func (a *app) waitListening(t *testing.T) {
	t.Helper()
	select {
	case p := <-a.port:
		a.Started = time.Since(a.begin)
		a.URL = "http://127.0.0.1:" + p
	case <-a.done:
		t.Fatalf("%s ended before it listened", a.name)
	case <-time.After(startLimit):
		t.Fatalf("%s did not log its port within %v", a.name, startLimit)
	}
}

// client sends the compared requests: no redirects followed, no
// Accept-Encoding added, a generous bound on a hung answer.
var client = &http.Client{
	Timeout:       30 * time.Second,
	Transport:     &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 4},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}
