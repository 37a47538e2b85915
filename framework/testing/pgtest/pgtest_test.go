package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/framework/testing/internal/testproc"
)

// TestFailoverToAPromotedStandby walks through what the failover tests
// need: a row written on the primary reaches the standby, which refuses
// writes; the primary crashes; the promoted standby keeps the row and
// takes writes.
func TestFailoverToAPromotedStandby(t *testing.T) {
	primary := Start(t)
	mustExec(t, primary, "CREATE TABLE t (x int)")
	mustExec(t, primary, "INSERT INTO t VALUES (1)")
	standby := primary.Standby(t)
	mustExec(t, primary, "INSERT INTO t VALUES (2)") // after the copy: streamed
	waitFor(t, standby, "SELECT count(*) FROM t", 2)

	err := tryExec(standby, "INSERT INTO t VALUES (3)")
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "25006" { // read_only_sql_transaction
		t.Fatalf("a write to the standby: %v, want SQLSTATE 25006 (read-only)", err)
	}

	primary.Kill(t)
	if err := tryExec(primary, "SELECT 1"); err == nil {
		t.Fatal("the primary still answers after Kill")
	}
	standby.Promote(t)
	mustExec(t, standby, "INSERT INTO t VALUES (3)")
	waitFor(t, standby, "SELECT count(*) FROM t", 3)
}

// TestRestartKeepsCommittedRows checks that a crash loses nothing that
// was committed, and that Restart serves the same data on the same port.
func TestRestartKeepsCommittedRows(t *testing.T) {
	s := Start(t)
	mustExec(t, s, "CREATE TABLE t (x int)")
	mustExec(t, s, "INSERT INTO t SELECT generate_series(1, 1000)")
	url := s.URL
	s.Kill(t)
	s.Restart(t)
	if s.URL != url {
		t.Errorf("Restart moved the server from %s to %s", url, s.URL)
	}
	waitFor(t, s, "SELECT count(*) FROM t", 1000)
	s.Stop(t)
	s.Restart(t)
	waitFor(t, s, "SELECT count(*) FROM t", 1000)
}

// TestServerRunsAsThePostgresUserUnderRoot checks the reason for Command:
// as root the server runs as postgres; otherwise as the test's user.
func TestServerRunsAsThePostgresUserUnderRoot(t *testing.T) {
	s := Start(t)
	want := strconv.Itoa(os.Geteuid())
	if os.Geteuid() == 0 {
		u, err := user.Lookup(serverUser)
		if err != nil {
			t.Fatal(err)
		}
		want = u.Uid
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		t.Skipf("no /proc here to read the server's user from: %v", err)
	}
	for line := range strings.Lines(string(status)) {
		if uids, ok := strings.CutPrefix(line, "Uid:"); ok {
			if got := strings.Fields(uids)[1]; got != want { // the effective one
				t.Errorf("postgres runs as uid %s, want %s", got, want)
			}
			return
		}
	}
	t.Fatal("no Uid line in the server's /proc status")
}

// TestMissingProgramSkipsOrFails checks the convention: a program that is
// not there skips the test on a laptop, saying why, and fails it in CI,
// which sets enginetest.PostgresVar. Not parallel: it changes the
// variable.
func TestMissingProgramSkipsOrFails(t *testing.T) {
	t.Setenv(enginetest.PostgresVar, "")
	kind, msg := testproc.Ending(t, func(tb testing.TB) { Bin(tb, "no-such-program") })
	if kind != "skip" || !strings.Contains(msg, "no-such-program is not at hand") {
		t.Errorf("without the program nor %s: %s %q, want a skip naming the program", enginetest.PostgresVar, kind, msg)
	}
	t.Setenv(enginetest.PostgresVar, "postgres://postgres@127.0.0.1:5432/postgres")
	kind, msg = testproc.Ending(t, func(tb testing.TB) { Bin(tb, "no-such-program") })
	if kind != "fatal" || !strings.Contains(msg, enginetest.PostgresVar+" is set") {
		t.Errorf("without the program, with %s set: %s %q, want a failure naming the variable", enginetest.PostgresVar, kind, msg)
	}
}

func tryExec(s *Server, sql string) error {
	return s.try(func(conn *pgx.Conn) error {
		_, err := conn.Exec(context.Background(), sql)
		return err
	})
}

func mustExec(t *testing.T, s *Server, sql string) {
	t.Helper()
	if err := tryExec(s, sql); err != nil {
		t.Fatalf("%s on %s: %v", sql, s.name, err)
	}
}

// waitFor waits until query, which returns one count, returns want on s:
// a standby applies what the primary streams a moment later.
func waitFor(t *testing.T, s *Server, query string, want int) {
	t.Helper()
	s.eventually(t, fmt.Sprintf("answering %d to %s", want, query), func(conn *pgx.Conn) error {
		var got int
		if err := conn.QueryRow(context.Background(), query).Scan(&got); err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("%d", got)
		}
		return nil
	})
}
