// Package redistest starts the Redis deployments that managed services and
// high-availability set-ups run, for tests: a Redis Cluster of three
// primaries (Cluster), a primary with a replica watched by Sentinel
// (Sentinel), and a Redis reached only by TLS (TLS, MutualTLS). Each is a
// set of redis-server processes on free loopback ports, in the test's
// temporary directory, killed when the test ends.
//
// The single Redis that most tests use is the machine's own, named by
// GREETER_TEST_REDIS_URL (see internal/enginetest). These deployments
// cannot be shared that way, so the tests start them from the redis-server
// and redis-cli binaries. A test that needs one is skipped, saying why,
// when the binaries are not on PATH; when GREETER_TEST_REDIS_URL is set
// (as CI sets it) it fails instead, so that CI never counts a skipped test
// as passed.
package redistest

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/framework/testing/internal/testproc"

	"github.com/springport/greeter/framework/testing/polltest"
)

// readyTimeout bounds each wait for a deployment to come up or settle. A
// deployment is ready in well under a second on an idle machine; the
// margin is for a loaded CI machine running the race detector.
const readyTimeout = 30 * time.Second

// requireBinaries skips the test when redis-server or redis-cli is not on
// PATH, or fails it when enginetest.RedisVar is set, since CI sets it and
// has the binaries.
func requireBinaries(t testing.TB) {
	t.Helper()
	for _, bin := range []string{"redis-server", "redis-cli"} {
		if _, err := exec.LookPath(bin); err != nil {
			if os.Getenv(enginetest.RedisVar) != "" {
				t.Fatalf("%s is set, but %s is not on PATH (%v): install Redis (Debian: apt-get install redis-server) to run the Redis Cluster, Sentinel and TLS tests", enginetest.RedisVar, bin, err)
			}
			t.Skipf("Redis Cluster, Sentinel and TLS tests skipped: %s is not on PATH (install Redis, Debian: apt-get install redis-server; CI, which sets %s, fails instead)", bin, enginetest.RedisVar)
		}
	}
}

// process is one redis-server the test started.
type process struct {
	name   string // for messages: "cluster node 2", "sentinel 1"...
	addr   string // 127.0.0.1:port where it serves clients
	cmd    *exec.Cmd
	log    string        // path of the file that holds its output
	exited chan struct{} // closed once it has exited and been reaped
	tls    *tls.Config   // how to reach it, nil for plain TCP
}

// startAttempts is how many times start picks new ports when a server
// cannot bind the ones it was given.
const startAttempts = 3

// start runs redis-server with the arguments that args makes from nports
// free ports (the first is the one clients reach), in dir, waits until it
// answers on that port, and kills it when the test ends. A server that
// exits because another process took one of its ports is started again
// on other ports.
func start(t testing.TB, name, dir string, nports int, tlsConf *tls.Config, args func(ports []int) []string) *process {
	t.Helper()
	for attempt := 1; ; attempt++ {
		ports := testproc.FreePorts(t, nports)
		p := launch(t, name, dir, ports[0], tlsConf, args(ports))
		err := p.waitReady()
		if err == nil {
			return p
		}
		out := p.output()
		if attempt < startAttempts && strings.Contains(out, "Address already in use") {
			t.Logf("%s: a port was taken before redis-server bound it; trying other ports", name)
			continue
		}
		t.Fatalf("%s did not start: %v\n%s output:\n%s", name, err, name, out)
	}
}

// launch starts redis-server with args, its output going to a file in dir,
// and registers its end with the test.
func launch(t testing.TB, name, dir string, port int, tlsConf *tls.Config, args []string) *process {
	t.Helper()
	log := filepath.Join(dir, "redis-"+strconv.Itoa(port)+".log")
	out, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("redis-server", args...)
	cmd.Dir = dir
	cmd.Stdout = out
	cmd.Stderr = out
	testproc.KillWithParent(cmd, syscall.SIGKILL)
	if err := cmd.Start(); err != nil {
		out.Close()
		t.Fatalf("starting %s (redis-server %s): %v", name, strings.Join(args, " "), err)
	}
	p := &process{
		name:   name,
		addr:   net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		cmd:    cmd,
		log:    log,
		exited: make(chan struct{}),
		tls:    tlsConf,
	}
	go func() {
		cmd.Wait()
		out.Close()
		close(p.exited)
	}()
	// Registered after t.TempDir's own cleanup, so it runs before the
	// directory is removed.
	t.Cleanup(p.stop)
	return p
}

// stop kills the server and waits until it has exited. Nothing of it is
// worth keeping (no persistence), so it is not asked to shut down.
func (p *process) stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	p.cmd.Process.Kill()
	<-p.exited
}

// output is what the server wrote, for failure messages.
func (p *process) output() string {
	b, err := os.ReadFile(p.log)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// waitReady waits until the server answers on its address, and checks
// that the answer comes from this process (its INFO names its process
// ID), not from another that holds the port.
func (p *process) waitReady() error {
	c := p.client()
	defer c.Close()
	want := strconv.Itoa(p.cmd.Process.Pid)
	exited := false
	err := polltest.Check(readyTimeout, func() error {
		select {
		case <-p.exited:
			exited = true
			return nil // no use asking again
		default:
		}
		info, err := c.Info(context.Background(), "server").Result()
		if err != nil {
			return err
		}
		if pid := infoField(info, "process_id"); pid != want {
			return fmt.Errorf("%s is answered by process %s, not the one started (%s)", p.addr, pid, want)
		}
		return nil
	})
	switch {
	case exited:
		return fmt.Errorf("redis-server exited: %v", p.cmd.ProcessState)
	case err != nil:
		return fmt.Errorf("not answering on %s: %v", p.addr, err)
	}
	return nil
}

// client is a connection pool to this server alone, with short timeouts
// and no retries, for the harness's own checks.
func (p *process) client() *redis.Client {
	return redis.NewClient(&redis.Options{
		Addr:            p.addr,
		TLSConfig:       p.tls,
		DialTimeout:     time.Second,
		ReadTimeout:     2 * time.Second,
		WriteTimeout:    2 * time.Second,
		MaxRetries:      -1,
		PoolSize:        1,
		DisableIdentity: true, // Sentinel knows no CLIENT SETINFO
		Protocol:        2,    // nor, being Sentinel, needs RESP3
	})
}

// infoField returns the value of field in the reply of INFO (lines of
// field:value), or "" when it is absent.
func infoField(info, field string) string {
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// eventually calls check until it reports done, failing the test when
// readyTimeout passes first with check's last explanation of why it is
// not done yet.
func eventually(t testing.TB, what string, check func() (done bool, why error)) {
	t.Helper()
	eventuallyWithin(t, readyTimeout, what, check)
}

// eventuallyWithin is eventually with a timeout of its own.
func eventuallyWithin(t testing.TB, timeout time.Duration, what string, check func() (done bool, why error)) {
	t.Helper()
	polltest.Until(t, timeout, what, func() error {
		if done, why := check(); !done {
			return fmt.Errorf("not done: %v", why)
		}
		return nil
	})
}
