package boot_test

// Settings sources a hostile or broken deployment may hand the service:
// each is refused, naming what is wrong, in processor time that grows no
// faster than the source and in bounded memory, or (a config tree as Kubernetes mounts it) read as meant.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
)

// refusal is how a start-up was refused: what Run wrote on stderr, the
// processor time it took and how much it allocated.
type refusal struct {
	stderr    string
	err       error
	took      time.Duration
	allocated uint64
}

// refuse runs tester with args and env, which must keep it from
// starting, and measures the refusal. Its caller must not be parallel:
// the time and allocations counted are the whole process's. The time is
// processor time, user and system, garbage collection included: on a
// shared machine, time on the clock says more about the neighbours.
func refuse(t *testing.T, args []string, env map[string]string) refusal {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := processorTime(t)
	// With a deadline longer than boottest's, which a slow refusal under
	// the race detector could reach: what is checked is processor time.
	// A service that starts instead is stopped by it.
	ctx, cancel := context.WithTimeout(context.Background(), 6*boottest.Timeout)
	defer cancel()
	var stdout, stderr boottest.Output
	err := boot.Run(ctx, tester(), boot.Process{Args: args, LookupEnv: boottest.Env(env), Stdout: &stdout, Stderr: &stderr})
	took := processorTime(t) - start
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatalf("the service started; want a refusal")
	}
	return refusal{stderr: stderr.String(), err: err, took: took, allocated: after.TotalAlloc - before.TotalAlloc}
}

// processorTime is the processor time the process has used so far.
func processorTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestHostileSettingsRefused hands the service sources that once took
// gigabytes or minutes to load, and checks each is refused allocating
// little, with a report that names the source and the limit it exceeds,
// in processor time that grows no faster than the source: each is
// refused at a tenth of its size first, and the whole one may take at
// most growthBound times as long. Linear work takes at most 10 times as
// long (less, with the fixed cost of a start-up in both); the quadratic
// work that once took minutes, 100 times. Both measurements are made in
// the same test, under the same load, so a busy machine slows both.
func TestHostileSettingsRefused(t *testing.T) {
	const growthBound = 30
	// Below a few milliseconds processor time is mostly noise (a
	// collection, a neighbour's cache): the baseline counts at least this
	// much.
	const noiseFloor = 10 * time.Millisecond
	// The race detector makes every step several times slower; the chain
	// is shorter under it.
	chainLength := 100_000
	if raceEnabled {
		chainLength /= 4
	}
	chain := func(n int) map[string]string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "logging.level.k%d=${logging.level.k%d}\n", i, i+1)
		}
		return map[string]string{"application.properties": b.String()}
	}
	// A source of size n: arguments, files and variables. Allocations
	// are counted in total, garbage included; what is held at once is
	// less.
	tests := []struct {
		name         string
		n            int // the size checked; a tenth of it is the baseline
		source       func(n int) (args []string, files, env map[string]string)
		want         func(n int) []string
		maxAllocated uint64
	}{
		// 130 KB that made keys of 6 GB: every level repeats its parents.
		{"nested arrays in APP_APPLICATION_JSON", 65_000, func(n int) ([]string, map[string]string, map[string]string) {
			return nil, nil, map[string]string{"APP_APPLICATION_JSON": `{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}"}
		}, func(int) []string {
			return []string{"app.application.json", "environment variable APP_APPLICATION_JSON", "nest more than 100 levels deep"}
		}, 16 << 20},
		{"deep objects in --app.application.json", 65_000, func(n int) ([]string, map[string]string, map[string]string) {
			return []string{"--app.application.json=" + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)}, nil, nil
		}, func(int) []string {
			return []string{"app.application.json", "command-line argument", "nest more than 100 levels deep"}
		}, 16 << 20},
		// A tenth as many are not too many: a bad port refuses those,
		// once they are read.
		{"too many settings in APP_APPLICATION_JSON", 600_000, func(n int) ([]string, map[string]string, map[string]string) {
			return []string{"--server.port=eighty"}, nil, map[string]string{"APP_APPLICATION_JSON": `{"a":[` + strings.Repeat("1,", n) + "1]}"}
		}, func(n int) []string {
			if n <= 500_000 {
				return []string{"server.port", "want a port number"}
			}
			return []string{"app.application.json", "more than 500000 settings"}
		}, 256 << 20},
		// n: MiB past the limit.
		{"a settings file over 8 MiB", 10, func(n int) ([]string, map[string]string, map[string]string) {
			return nil, map[string]string{"application.properties": strings.Repeat("some.key=some value\n", (8+n)<<20/20)}, nil
		}, func(int) []string { return []string{"file [application.properties]", "larger than 8 MiB"} }, 48 << 20},
		{"YAML nested too deeply", 2_000, func(n int) ([]string, map[string]string, map[string]string) {
			return nil, map[string]string{"application.yml": "a: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n"}, nil
		}, func(int) []string { return []string{"file [application.yml]", "nest more than 100 levels deep"} }, 16 << 20},
		// Keys of one family, each ${the next}: every key is read, and
		// each chain is too deep.
		{"a chain of placeholders", chainLength, func(n int) ([]string, map[string]string, map[string]string) {
			return nil, chain(n), nil
		}, func(n int) []string {
			return []string{"logging.level.k0", "nested more than 32 deep", fmt.Sprintf("and %d more settings", n-100)}
		}, 384 << 20},
		// The same, each chain 30 long and ending in a placeholder nothing
		// resolves: every key keeps it as written, with its chain, and is
		// then no level.
		{"chains of placeholders kept as written", chainLength, func(n int) ([]string, map[string]string, map[string]string) {
			var b strings.Builder
			for i := range n {
				if (i+1)%30 == 0 {
					fmt.Fprintf(&b, "logging.level.k%d=${missing.k%d}\n", i, i)
					continue
				}
				fmt.Fprintf(&b, "logging.level.k%d=${logging.level.k%d}\n", i, i+1)
			}
			return nil, map[string]string{"application.properties": b.String()}, nil
		}, func(n int) []string {
			return []string{"logging.level.k0", `Value: "${logging.level.k1}"`, fmt.Sprintf("and %d more settings", n-100)}
		}, 384 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var took [2]time.Duration
			for i, n := range []int{tt.n / 10, tt.n} {
				args, files, env := tt.source(n)
				workIn(t, files)
				r := refuse(t, args, env)
				for _, w := range tt.want(n) {
					if !strings.Contains(r.stderr, w) {
						t.Errorf("size %d: the report does not say %q:\n%.2000s", n, w, r.stderr)
					}
				}
				t.Logf("size %d: refused after %v of processor time, %d MiB allocated", n, r.took, r.allocated>>20)
				// The bound is the refusal's: a baseline a tenth as large
				// may be a source that is read whole (60,000 settings are
				// not too many), which costs what reading them costs.
				if n == tt.n && r.allocated > tt.maxAllocated {
					t.Errorf("size %d: allocated %d MiB to refuse it, want at most %d MiB", n, r.allocated>>20, tt.maxAllocated>>20)
				}
				if len(r.stderr) > 64<<10 {
					t.Errorf("size %d: a report of %d KiB, want at most 64 KiB", n, len(r.stderr)>>10)
				}
				took[i] = r.took
			}
			if base := max(took[0], noiseFloor); took[1] > growthBound*base {
				t.Errorf("refused after %v of processor time at size %d, %.0f times the %v at size %d; want at most %d times",
					took[1], tt.n, float64(took[1])/float64(base), took[0], tt.n/10, growthBound)
			}
		})
	}
}

// TestConfigTreeAsKubernetesMountsIt imports a config tree laid out as
// Kubernetes mounts a secret: each key a link into ..data, which links to
// a timestamped folder; db is a link to a folder. Its settings are read
// through the links, with the files' paths as origins.
func TestConfigTreeAsKubernetesMountsIt(t *testing.T) {
	workIn(t, map[string]string{
		"tree/..2024_01_01_12_00_00.1/db/user":  "app\n",
		"tree/..2024_01_01_12_00_00.1/db/url":   "postgres://db/app\n",
		"tree/..2024_01_01_12_00_00.1/greeting": "Hi from Kubernetes\n",
	})
	for link, target := range map[string]string{"tree/..data": "..2024_01_01_12_00_00.1", "tree/db": "..data/db", "tree/greeting": "..data/greeting"} {
		if err := os.Symlink(target, filepath.FromSlash(link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	s := boottest.Start(t, tester(), append([]string{"--app.config.import=configtree:tree/"}, exposeEnv...), nil)
	for key, want := range map[string]boottest.Property{
		"db.user":  {Value: "app", Source: "Config resource 'config tree [tree]' via location 'configtree:tree/'", Origin: "file [tree/db/user]"},
		"greeting": {Value: "Hi from Kubernetes", Source: "Config resource 'config tree [tree]' via location 'configtree:tree/'", Origin: "file [tree/greeting]"},
	} {
		if got := s.ReadProperty(t, key); got != want {
			t.Errorf("%s:\ngot  %+v\nwant %+v", key, got, want)
		}
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/env/..data.db.user", ""); r.status != 404 {
		t.Errorf("..data.db.user answered %d, want 404: Kubernetes' own folders are not settings", r.status)
	}
}
