package postgres_test

// What a failover does to the pool (framework/datasource/failover.go),
// under the store: a server that stopped
// taking writes, or went away, has the pool let go of every connection to
// it at the first statement that finds out, so that the next operation
// dials anew; a statement that timed out does not. Each test runs a
// PostgreSQL server of its own (pgtest), whose connections it can count.

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/testing/pgtest"
	"github.com/springport/greeter/framework/testing/polltest"
	"github.com/springport/greeter/messagestore/postgres"
)

// poolSize is the pool of these tests: each fills it first.
const poolSize = 4

// TestReadOnlyServerIsLetGo fences the server read-only, as a switchover
// fences a primary (default_transaction_read_only, reloaded). The pool
// closes every connection it holds to the server at the first statement
// after, a read, as the server then reports the change, rather than
// keeping them (their reads work, so pgx never drops them, and each write
// on them would fail); a write is an outage (503), not an error of ours
// (500), and has the pool close the connection it took too. Once the
// server takes writes again, so does the store, without a restart.
func TestReadOnlyServerIsLetGo(t *testing.T) {
	t.Parallel()
	server := pgtest.Start(t)
	db := open(t, server.URL, func(o *postgres.Options) { o.DataSource.MaxPoolSize = poolSize })
	s := db.Messages()
	if err := s.Append(t.Context(), message.Message{Text: "before"}); err != nil {
		t.Fatal(err)
	}
	fillPool(t, db)

	setReadOnly(t, server, true)
	if m, err := s.Get(t.Context(), 0); err != nil || m.Text != "before" {
		t.Fatalf("Get from the read-only server: %v %v, want the message stored before", m, err)
	}
	expectNoConnection(t, db, server)

	fillPool(t, db) // connections opened to the server read-only
	err := s.Append(t.Context(), message.Message{Text: "refused"})
	expectOutage(t, "Append to a read-only server", err)
	if pgErr := (*pgconn.PgError)(nil); !errors.As(err, &pgErr) || pgErr.Code != "25006" {
		t.Errorf("Append to a read-only server: %v, want SQLSTATE 25006 (read_only_sql_transaction)", err)
	}
	expectNoConnection(t, db, server)

	setReadOnly(t, server, false)
	if err := s.Append(t.Context(), message.Message{Text: "stored"}); err != nil {
		t.Fatalf("Append once the server takes writes again: %v", err)
	}
	got, err := message.All(t.Context(), s)
	if err != nil || len(got) != 2 || got[0].Text != "before" || got[1].Text != "stored" {
		t.Errorf("the messages: %v %v, want the one stored before, and the one after", got, err)
	}
}

// TestServerGoneIsLetGo stops or kills the server under a full pool of
// idle connections: the first operation fails (an outage) on one of
// them, and the pool closes the others then, rather than failing an
// operation on each in turn once a server is back (pgx pings a
// connection before lending it only when it was idle over a second).
func TestServerGoneIsLetGo(t *testing.T) {
	t.Parallel()
	for name, end := range map[string]func(*pgtest.Server, testing.TB){
		"stop": (*pgtest.Server).Stop,
		"kill": (*pgtest.Server).Kill,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			server := pgtest.Start(t)
			db := open(t, server.URL, func(o *postgres.Options) { o.DataSource.MaxPoolSize = poolSize })
			s := db.Messages()
			fillPool(t, db)

			end(server, t)
			_, err := s.Get(t.Context(), 0)
			expectOutage(t, "Get from a server gone", err)
			expectNoConnection(t, db, nil)

			server.Restart(t)
			if err := s.Append(t.Context(), message.Message{Text: "after"}); err != nil {
				t.Errorf("Append once the server is back: %v", err)
			}
		})
	}
}

// TestTimeoutKeepsThePool: a statement that outlives its context says
// nothing about the server; pgx closes its connection, and the pool keeps
// the others (a reset there would have every slow statement under load
// reopen the whole pool).
func TestTimeoutKeepsThePool(t *testing.T) {
	t.Parallel()
	server := pgtest.Start(t)
	db := open(t, server.URL, func(o *postgres.Options) { o.DataSource.MaxPoolSize = poolSize })
	fillPool(t, db)

	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := postgres.Pool(db).Exec(ctx, "SELECT pg_sleep(2)"); err == nil || !pgconn.Timeout(err) {
		t.Fatalf("a statement past its deadline: %v, want a timeout", err)
	}
	polltest.Until(t, polltest.Timeout, "the timed-out connection to be dropped, and the others kept", func() error {
		if p := db.Pool().Stats(); p.Idle+p.Active != poolSize-1 {
			return fmt.Errorf("the pool holds %d connections (%d idle), want %d", p.Idle+p.Active, p.Idle, poolSize-1)
		}
		return nil
	})
}

// fillPool has the pool of db open all its connections, lending them out at
// once, then take them back idle.
func fillPool(t *testing.T, db *postgres.DB) {
	t.Helper()
	pool := postgres.Pool(db)
	conns := make([]*pgxpool.Conn, 0, poolSize)
	for range poolSize {
		c, err := pool.Acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		c.Release()
	}
	if p := db.Pool().Stats(); p.Idle != poolSize {
		t.Fatalf("the pool holds %d idle connections, want %d", p.Idle, poolSize)
	}
}

// setReadOnly makes every transaction of server read-only by default, or
// no longer, and returns once a new session sees it (the postmaster has
// then signalled every session to reload the setting).
func setReadOnly(t *testing.T, server *pgtest.Server, on bool) {
	t.Helper()
	set := map[bool]string{true: "ALTER SYSTEM SET default_transaction_read_only = on", false: "ALTER SYSTEM RESET default_transaction_read_only"}[on]
	want := map[bool]string{true: "on", false: "off"}[on]
	for _, sql := range []string{set, "SELECT pg_reload_conf()"} {
		withConn(t, server, func(conn *pgx.Conn) error {
			_, err := conn.Exec(t.Context(), sql)
			return err
		})
	}
	polltest.Until(t, polltest.Timeout, "default_transaction_read_only to be "+want, func() error {
		var got string
		err := tryConn(t.Context(), server, func(conn *pgx.Conn) error {
			return conn.QueryRow(t.Context(), "SHOW default_transaction_read_only").Scan(&got)
		})
		if err == nil && got != want {
			err = fmt.Errorf("it is %s", got)
		}
		return err
	})
}

// expectNoConnection waits until the pool of db holds no connection and,
// where server is not nil, the server serves none of the store's
// sessions, and fails the test when that does not come.
func expectNoConnection(t *testing.T, db *postgres.DB, server *pgtest.Server) {
	t.Helper()
	polltest.Until(t, polltest.Timeout, "the pool to let go of every connection", func() error {
		if p := db.Pool().Stats(); p.Idle+p.Active != 0 {
			return fmt.Errorf("the pool holds %d connections (%d idle)", p.Idle+p.Active, p.Idle)
		}
		if server == nil {
			return nil
		}
		var n int
		err := tryConn(t.Context(), server, func(conn *pgx.Conn) error {
			return conn.QueryRow(t.Context(), "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'greeter'").Scan(&n)
		})
		if err == nil && n != 0 {
			err = fmt.Errorf("the server serves %d of the store's sessions", n)
		}
		return err
	})
}

// withConn calls f with a connection of its own to server, failing the
// test on an error.
func withConn(t *testing.T, server *pgtest.Server, f func(*pgx.Conn) error) {
	t.Helper()
	if err := tryConn(t.Context(), server, f); err != nil {
		t.Fatal(err)
	}
}

func tryConn(ctx context.Context, server *pgtest.Server, f func(*pgx.Conn) error) error {
	conn, err := pgx.Connect(ctx, server.URL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	return f(conn)
}
