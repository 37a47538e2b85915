// Package pgtest starts PostgreSQL servers of a test's own: a primary
// (Start) and standbys that stream from it (Server.Standby), which a test
// may kill, stop and promote as a failover does. Each is a postgres
// process on a free loopback port, with its data in a directory of its
// own, stopped and removed when the test ends.
//
// The single PostgreSQL that most tests use is the machine's own, named
// by GREETER_TEST_POSTGRES_URL (see internal/enginetest); it cannot be
// crashed or failed over, so these tests start their own from the server
// programs, found through `pg_config --bindir` (Debian keeps them off
// PATH). initdb and postgres refuse to run as root, and CI runs as root,
// so Command runs them as the postgres user there. A test that needs them
// is skipped, saying why, when they are missing; when
// GREETER_TEST_POSTGRES_URL is set (as CI sets it) it fails instead, so
// that CI never counts a skipped test as passed.
package pgtest

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/framework/testing/internal/testproc"
)

// serverUser is the account the server programs run as when the tests
// run as root: the one Debian's postgresql package creates.
const serverUser = "postgres"

// Bin returns the path of the PostgreSQL program name (initdb, postgres,
// pg_basebackup, pg_ctl...) in the folder that `pg_config --bindir`
// names, skipping or failing the test as the package comment says when
// it is not there.
func Bin(t testing.TB, name string) string {
	t.Helper()
	dir, err := bindir()
	if err == nil {
		path := filepath.Join(dir, name)
		if _, err = os.Stat(path); err == nil {
			return path
		}
	}
	if os.Getenv(enginetest.PostgresVar) != "" {
		t.Fatalf("%s is set, but the PostgreSQL server program %s is not at hand (%v): install PostgreSQL (Debian: apt-get install postgresql) to run the tests that start their own servers", enginetest.PostgresVar, name, err)
	}
	t.Skipf("tests that start their own PostgreSQL skipped: %s is not at hand (%v); install PostgreSQL (Debian: apt-get install postgresql; CI, which sets %s, fails instead)", name, err, enginetest.PostgresVar)
	return ""
}

var bindir = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("pg_config", "--bindir").Output()
	if err != nil {
		return "", fmt.Errorf("pg_config --bindir: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
})

// Command returns a command that runs the PostgreSQL program name with
// args: as the postgres user when the test runs as root, since initdb,
// postgres and pg_ctl refuse to run as root, and as the test's own user
// otherwise. The server is sent SIGQUIT (PostgreSQL's immediate shutdown,
// which ends its children too) if the test binary dies without its
// cleanups.
func Command(t testing.TB, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(Bin(t, name), args...)
	if cred := serverCredential(t); cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	// Not the test's PG* variables: the programs are told where to go.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C", "TZ=UTC"}
	testproc.KillWithParent(cmd, syscall.SIGQUIT)
	return cmd
}

// serverCredential is the postgres user's when the test runs as root,
// and nil (run as the test's own user) otherwise.
func serverCredential(t testing.TB) *syscall.Credential {
	t.Helper()
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup(serverUser)
	if err != nil {
		t.Fatalf("the tests run as root, and PostgreSQL's programs refuse to: they run as the %q user, which is missing (%v); Debian's postgresql package creates it", serverUser, err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		t.Fatalf("user %s: uid %q, gid %q", serverUser, u.Uid, u.Gid)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
}

// serverDir makes an empty directory for one server's files that the
// server's user owns, and removes it when the test ends. It is not under
// t.TempDir, whose folders only the test's user may enter.
func serverDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if cred := serverCredential(t); cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// run runs the PostgreSQL program name to its end, failing the test with
// its output when it fails or takes over readyTimeout.
func run(t testing.TB, name string, args ...string) {
	t.Helper()
	cmd := Command(t, name, args...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	timer := time.AfterFunc(readyTimeout, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	if !timer.Stop() {
		err = fmt.Errorf("killed after %v: %v", readyTimeout, err)
	}
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
	}
}
