package redistest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/springport/greeter/internal/enginetest"
)

// outcomeTB records how requireBinaries ends a test, in place of the
// test's own Skipf and Fatalf, which would end this one.
type outcomeTB struct {
	testing.TB
	kind, msg string
}

type ended struct{}

func (o *outcomeTB) Helper() {}
func (o *outcomeTB) Skipf(format string, args ...any) {
	o.kind, o.msg = "skip", fmt.Sprintf(format, args...)
	panic(ended{})
}
func (o *outcomeTB) Fatalf(format string, args ...any) {
	o.kind, o.msg = "fatal", fmt.Sprintf(format, args...)
	panic(ended{})
}

func requireBinariesOutcome(t *testing.T) (o *outcomeTB) {
	o = &outcomeTB{TB: t, kind: "run"}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(ended); !ok {
				panic(r)
			}
		}
	}()
	requireBinaries(o)
	return o
}

// TestRequireBinariesSkipsOrFailsWithoutRedis checks the convention the
// harness's users rely on: without the binaries a test is skipped on a
// laptop, saying why, and fails in CI, which sets enginetest.RedisVar.
// Not parallel: it changes PATH and the variable.
func TestRequireBinariesSkipsOrFailsWithoutRedis(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv(enginetest.RedisVar, "")
	o := requireBinariesOutcome(t)
	if o.kind != "skip" || !strings.Contains(o.msg, "redis-server is not on PATH") {
		t.Errorf("without the binaries nor %s: %s %q, want a skip naming redis-server", enginetest.RedisVar, o.kind, o.msg)
	}
	t.Setenv(enginetest.RedisVar, "redis://127.0.0.1:6379/0")
	o = requireBinariesOutcome(t)
	if o.kind != "fatal" || !strings.Contains(o.msg, enginetest.RedisVar+" is set") {
		t.Errorf("without the binaries, with %s set: %s %q, want a failure naming the variable", enginetest.RedisVar, o.kind, o.msg)
	}
}
