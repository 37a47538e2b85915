// Package conformance_test runs greeter's Spring reference application
// (spring/, test equipment: see spring/README.md) beside greeter, for the
// differential tests of issue 33. This file starts the Spring application;
// the tests grow from smoke_test.go.
package conformance_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The Spring Boot lines the reference application is built on, each the
// name of its Maven profile and of its folder under spring/target/.
var springFlavours = []string{"boot4", "boot35"}

// springRequired: GREETER_TEST_SPRING=1 makes a missing java or jar a
// failure rather than a skip.
func springRequired() bool { return os.Getenv("GREETER_TEST_SPRING") == "1" }

// springJar is the path of the flavour's jar, which spring/build makes.
func springJar(flavour string) string {
	return filepath.Join("spring", "target", flavour, "app.jar")
}

// needSpring skips the test (or fails it, with GREETER_TEST_SPRING=1)
// when java or the flavour's jar is missing.
func needSpring(t *testing.T, flavour string) {
	t.Helper()
	why := ""
	if _, err := exec.LookPath("java"); err != nil {
		why = "no java on PATH"
	} else if _, err := os.Stat(springJar(flavour)); err != nil {
		why = fmt.Sprintf("no %s (build it with conformance/spring/build)", springJar(flavour))
	}
	if why == "" {
		return
	}
	if springRequired() {
		t.Fatalf("%s, and GREETER_TEST_SPRING=1", why)
	}
	t.Skipf("%s; GREETER_TEST_SPRING=1 makes this a failure", why)
}

// springApp is a running Spring reference application.
type springApp struct {
	URL     string        // http://127.0.0.1:port
	Started time.Duration // from exec to the port's log line
	log     *syncBuffer
}

// syncBuffer is the application's output, written by the reader goroutine
// and read by the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// tomcatPort is the line Spring Boot logs once Tomcat listens (Boot 3.5
// and 4 alike): "Tomcat started on port 41237 (http) with context path '/'".
var tomcatPort = regexp.MustCompile(`Tomcat started on port (\d+)`)

// startSpring starts the flavour's jar on a free port (--server.port=0)
// with args, without the environment's SPRING_ variables (so no database,
// Redis or security unless args name them), and stops it when the test
// ends. It fails the test if the port is not logged within two minutes.
func startSpring(t *testing.T, flavour string, args ...string) *springApp {
	t.Helper()
	needSpring(t, flavour)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "java", append([]string{"-jar", springJar(flavour), "--server.port=0", "--server.address=127.0.0.1"}, args...)...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 20 * time.Second
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(strings.ToUpper(kv), "SPRING_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	app := &springApp{log: &syncBuffer{}}
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	port := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(app.log, line)
			if m := tomcatPort.FindStringSubmatch(line); m != nil {
				select {
				case port <- m[1]:
				default:
				}
			}
		}
		_, _ = io.Copy(app.log, out)
	}()
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		<-done
		if t.Failed() {
			t.Logf("%s's output:\n%s", flavour, app.log)
		}
	})
	select {
	case p := <-port:
		app.Started = time.Since(begin)
		app.URL = "http://127.0.0.1:" + p
	case <-done:
		t.Fatalf("%s ended before it listened", flavour)
	case <-time.After(2 * time.Minute):
		t.Fatalf("%s did not log its port within two minutes", flavour)
	}
	return app
}

// get sends GET path with the headers (name, value pairs) and returns the
// response with its body read.
func (a *springApp) get(t *testing.T, path string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, a.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: reading the body: %v", path, err)
	}
	return resp, body
}
