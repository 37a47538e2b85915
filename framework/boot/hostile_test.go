package boot_test

// Settings sources a hostile or broken deployment may hand the service:
// each is refused, naming what is wrong, within a second and in bounded
// memory, or (a config tree as Kubernetes mounts it) read as meant.

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
	// Without boottest's deadline, which a slow refusal under the race
	// detector could reach: the limit checked is on processor time.
	var stdout, stderr boottest.Output
	err := boot.Run(context.Background(), tester(), boot.Process{Args: args, LookupEnv: boottest.Env(env), Stdout: &stdout, Stderr: &stderr})
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
// gigabytes or minutes to load, and checks each is refused within a
// second, allocating little, with a report that names the source and the
// limit it exceeds.
func TestHostileSettingsRefused(t *testing.T) {
	limit := time.Second
	if raceEnabled {
		limit *= 10
	}
	// The race detector makes every step several times slower; the chain
	// is shorter under it, so that the time per key is what is checked.
	chainLength := 100_000
	if raceEnabled {
		chainLength /= 4
	}
	var chain strings.Builder
	for i := range chainLength {
		fmt.Fprintf(&chain, "logging.level.k%d=${logging.level.k%d}\n", i, i+1)
	}
	// Allocations are counted in total, garbage included; what is held
	// at once is less.
	tests := []struct {
		name         string
		args         []string
		files        map[string]string
		env          map[string]string
		want         []string
		maxAllocated uint64
	}{
		// 130 KB that made keys of 6 GB: every level repeats its parents.
		{"nested arrays in APP_APPLICATION_JSON", nil, nil,
			map[string]string{"APP_APPLICATION_JSON": `{"a":` + strings.Repeat("[", 65_000) + strings.Repeat("]", 65_000) + "}"},
			[]string{"app.application.json", "environment variable APP_APPLICATION_JSON", "nest more than 100 levels deep"}, 16 << 20},
		{"deep objects in --app.application.json",
			[]string{"--app.application.json=" + strings.Repeat(`{"a":`, 65_000) + "1" + strings.Repeat("}", 65_000)}, nil, nil,
			[]string{"app.application.json", "command-line argument", "nest more than 100 levels deep"}, 16 << 20},
		{"too many settings in APP_APPLICATION_JSON", nil, nil,
			map[string]string{"APP_APPLICATION_JSON": `{"a":[` + strings.Repeat("1,", 600_000) + "1]}"},
			[]string{"app.application.json", "more than 500000 settings"}, 256 << 20},
		{"a settings file over 8 MiB", nil, map[string]string{"application.properties": strings.Repeat("some.key=some value\n", 9<<20/20)}, nil,
			[]string{"file [application.properties]", "larger than 8 MiB"}, 48 << 20},
		{"YAML nested too deeply", nil, map[string]string{"application.yml": "a: " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n"}, nil,
			[]string{"file [application.yml]", "nest more than 100 levels deep"}, 16 << 20},
		// 100,000 keys of one family, each ${the next}: every key is read,
		// and each chain is too deep.
		{"a chain of placeholders, 100,000 long", nil, map[string]string{"application.properties": chain.String()}, nil,
			[]string{"logging.level.k0", "nested more than 32 deep", fmt.Sprintf("and %d more settings", chainLength-100)}, 384 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			workIn(t, tt.files)
			r := refuse(t, tt.args, tt.env)
			for _, w := range tt.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("the report does not say %q:\n%.2000s", w, r.stderr)
				}
			}
			t.Logf("refused after %v of processor time, %d MiB allocated", r.took, r.allocated>>20)
			if r.took > limit {
				t.Errorf("refused after %v of processor time, want within %v", r.took, limit)
			}
			if r.allocated > tt.maxAllocated {
				t.Errorf("allocated %d MiB to refuse it, want at most %d MiB", r.allocated>>20, tt.maxAllocated>>20)
			}
			if len(r.stderr) > 64<<10 {
				t.Errorf("a report of %d KiB, want at most 64 KiB", len(r.stderr)>>10)
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
	for key, want := range map[string]property{
		"db.user":  {"app", "Config resource 'config tree [tree]' via location 'configtree:tree/'", "file [tree/db/user]"},
		"greeting": {"Hi from Kubernetes", "Config resource 'config tree [tree]' via location 'configtree:tree/'", "file [tree/greeting]"},
	} {
		if got := readProperty(t, s, key); got != want {
			t.Errorf("%s:\ngot  %+v\nwant %+v", key, got, want)
		}
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/env/..data.db.user", ""); r.status != 404 {
		t.Errorf("..data.db.user answered %d, want 404: Kubernetes' own folders are not settings", r.status)
	}
}
