// Command startup measures a server binary's start-up for bench/run: the
// time from exec to the first 200 answer, polled in-process every 100µs,
// and the resident memory (VmRSS) once it has answered (-requests in all,
// the first included) and been left idle.
//
//	startup [-runs 20] [-path /api/hello] [-requests 1] [-idle 500ms] [-timeout 10s] BINARY [ARGS...]
//
// A JVM takes seconds to start on these machines (bench/run's spring step
// measures the Spring application with BINARY java and ARGS -jar app.jar),
// hence -timeout, the bound on waiting for the first 200.
//
// Each run starts BINARY with ARGS and --server.port=<a free port>, and
// stops it with SIGTERM. It prints each run, then the medians on a last
// line: "median startup_us=N rss_kib=N".
package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	runs := flag.Int("runs", 20, "how many times to start the binary")
	path := flag.String("path", "/api/hello", "the path polled until it answers 200")
	requests := flag.Int("requests", 1, "how many requests the server answers 200, the first included, before it idles")
	idle := flag.Duration("idle", 500*time.Millisecond, "how long the server idles after its last request before VmRSS is read")
	timeout := flag.Duration("timeout", 10*time.Second, "how long to wait for the first 200")
	flag.Parse()
	if flag.NArg() < 1 || *requests < 1 {
		fmt.Fprintln(os.Stderr, "usage: startup [-runs N] [-path P] [-requests N>=1] [-idle D] [-timeout D] BINARY [ARGS...]")
		os.Exit(2)
	}
	var startups []time.Duration
	var rss []int
	for i := range *runs {
		d, kib, err := once(flag.Arg(0), flag.Args()[1:], *path, *requests, *idle, *timeout)
		if err != nil {
			fmt.Fprintf(os.Stderr, "run %d: %v\n", i+1, err)
			os.Exit(1)
		}
		fmt.Printf("run %d startup_us=%d rss_kib=%d\n", i+1, d.Microseconds(), kib)
		startups, rss = append(startups, d), append(rss, kib)
	}
	fmt.Printf("median startup_us=%d rss_kib=%d\n", median(startups).Microseconds(), median(rss))
}

// once starts the binary, waits at most timeout for its first 200, sends
// the rest of the requests, and reads its VmRSS after the idle time.
func once(bin string, args []string, path string, requests int, idle, timeout time.Duration) (time.Duration, int, error) {
	port, err := freePort()
	if err != nil {
		return 0, 0, err
	}
	url := "http://127.0.0.1:" + strconv.Itoa(port) + path
	client := &http.Client{
		Transport: &http.Transport{DisableKeepAlives: true},
		Timeout:   2 * time.Second,
	}
	cmd := exec.Command(bin, append(slices.Clone(args), "--server.port="+strconv.Itoa(port))...)
	began := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer stop(cmd)
	deadline := began.Add(timeout)
	var took time.Duration
	for {
		resp, err := client.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				took = time.Since(began)
				break
			}
		}
		if time.Now().After(deadline) {
			return 0, 0, fmt.Errorf("no 200 from %s within %v (last error: %v)", url, timeout, err)
		}
		time.Sleep(100 * time.Microsecond)
	}
	for i := 1; i < requests; i++ {
		resp, err := client.Get(url)
		if err != nil {
			return 0, 0, err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return 0, 0, fmt.Errorf("request %d to %s: %s", i+1, url, resp.Status)
		}
	}
	time.Sleep(idle)
	kib, err := vmRSS(cmd.Process.Pid)
	return took, kib, err
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// stop ends the server with SIGTERM, and SIGKILL if it lingers.
func stop(cmd *exec.Cmd) {
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-done
	}
}

// vmRSS reads a process's resident set size in KiB.
func vmRSS(pid int) (int, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return 0, errors.New("no VmRSS line in /proc/" + strconv.Itoa(pid) + "/status")
}

func median[T int | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
