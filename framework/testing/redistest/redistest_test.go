package redistest

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/framework/testing/internal/testproc"
)

// TestRequireBinariesSkipsOrFailsWithoutRedis checks the convention the
// harness's users rely on: without the binaries a test is skipped on a
// laptop, saying why, and fails in CI, which sets enginetest.RedisVar.
// Not parallel: it changes PATH and the variable.
func TestRequireBinariesSkipsOrFailsWithoutRedis(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv(enginetest.RedisVar, "")
	kind, msg := testproc.Ending(t, requireBinaries)
	if kind != "skip" || !strings.Contains(msg, "redis-server is not on PATH") {
		t.Errorf("without the binaries nor %s: %s %q, want a skip naming redis-server", enginetest.RedisVar, kind, msg)
	}
	t.Setenv(enginetest.RedisVar, "redis://127.0.0.1:6379/0")
	kind, msg = testproc.Ending(t, requireBinaries)
	if kind != "fatal" || !strings.Contains(msg, enginetest.RedisVar+" is set") {
		t.Errorf("without the binaries, with %s set: %s %q, want a failure naming the variable", enginetest.RedisVar, kind, msg)
	}
}
