package datasource_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/outage"
	"github.com/springport/greeter/framework/testing/enginetest"
)

// expectOutage checks that err wraps an *outage.Error of PostgreSQL.
func expectOutage(t *testing.T, what string, err error) {
	t.Helper()
	if o, ok := errors.AsType[*outage.Error](err); !ok || o.Dependency != "PostgreSQL" {
		t.Errorf("%s: got %v, want an outage of PostgreSQL", what, err)
	}
}

func TestOpenUnreachable(t *testing.T) {
	// Not parallel: it times the refusal.
	const password = "s3cr%t-pässword"
	start := time.Now()
	_, err := datasource.Open(t.Context(), datasource.Options{
		URL:               "postgres://greeter:" + strings.ReplaceAll(password, "%", "%25") + "@127.0.0.1:1/messages",
		ConnectionTimeout: 2 * time.Second,
	})
	if err == nil {
		t.Fatal("Open succeeded on port 1")
	}
	// A refusal is at once; retried, it would take the connection timeout
	// (2s), or without it the default (5s): the bound is that.
	if elapsed := time.Since(start); elapsed >= datasource.DefaultConnectionTimeout {
		t.Errorf("Open took %v to fail, want at most the connection timeout, 2s", elapsed)
	}
	expectOutage(t, "Open", err)
	msg := err.Error()
	for _, want := range []string{"connecting to PostgreSQL at 127.0.0.1:1/messages as greeter", "connection refused"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Open's error does not say %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "s3cr") || strings.Contains(msg, "ssword") {
		t.Errorf("Open's error shows the password:\n%s", msg)
	}
}

func TestOpenSilentServerFailsWithinTheConnectionTimeout(t *testing.T) {
	// Not parallel: it times the refusal against the connection timeout.
	server := enginetest.PostgresServer(t)
	proxy := enginetest.NewProxy(t, hostPort(t, server))
	proxy.Hang()
	start := time.Now()
	_, err := datasource.Open(t.Context(), datasource.Options{
		URL:               through(t, server, proxy),
		ConnectionTimeout: 500 * time.Millisecond,
	})
	// Without the connection timeout set it would take the default, 5s,
	// however idle the machine: under that, a busy one has 4.5s to spare.
	if elapsed := time.Since(start); elapsed >= datasource.DefaultConnectionTimeout {
		t.Errorf("Open took %v to fail, want about the connection timeout, 500ms, and less than the default, %v", elapsed, datasource.DefaultConnectionTimeout)
	}
	expectOutage(t, "Open", err)
}

// TestOwnTimeoutsAndNames: a URL's own statement_timeout and
// application_name win over the pool's; a migration's configuration has
// no statement timeout of the pool's; Hikari's 0 ("none") is a negative
// duration in Options, and no connection is then retired at once.
func TestOwnTimeoutsAndNames(t *testing.T) {
	t.Parallel()
	url := enginetest.Postgres(t)
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	own, err := datasource.Open(t.Context(), datasource.Options{URL: url + sep + "statement_timeout=1234&application_name=mine", ApplicationName: "theirs"})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	var timeout, name string
	if err := own.QueryRow(t.Context(), "SELECT current_setting('statement_timeout'), current_setting('application_name')").Scan(&timeout, &name); err != nil {
		t.Fatal(err)
	}
	if timeout != "1234ms" || name != "mine" {
		t.Errorf("statement_timeout %s, application_name %s; want the URL's, 1234ms and mine", timeout, name)
	}

	pool, err := datasource.Open(t.Context(), datasource.Options{URL: url, ApplicationName: "theirs", QueryTimeout: 1500 * time.Millisecond,
		IdleTimeout: -1, MaxLifetime: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := pool.QueryRow(t.Context(), "SELECT current_setting('statement_timeout'), current_setting('application_name')").Scan(&timeout, &name); err != nil {
		t.Fatal(err)
	}
	if timeout != "1500ms" || name != "theirs" {
		t.Errorf("statement_timeout %s, application_name %s; want the pool's, 1500ms and theirs", timeout, name)
	}
	if _, set := pool.MigrationConfig().RuntimeParams["statement_timeout"]; set {
		t.Error("the migrations' configuration has the pool's statement timeout")
	}
	// Idle and old connections are kept: one used twice is the same.
	var first, second int
	for _, pid := range []*int{&first, &second} {
		if err := pool.QueryRow(t.Context(), "SELECT pg_backend_pid()").Scan(pid); err != nil {
			t.Fatal(err)
		}
	}
	if first != second {
		t.Errorf("the backend changed from %d to %d: a connection of no idle timeout or lifetime was retired", first, second)
	}
}

// TestClassifiedCalls: the Pool's own calls apply the outage rule: a
// connection an administrator ends is an outage, a violated constraint
// is not; no row is pgx.ErrNoRows.
func TestClassifiedCalls(t *testing.T) {
	t.Parallel()
	pool, err := datasource.Open(t.Context(), datasource.Options{URL: enginetest.Postgres(t), QueryTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	ctx := t.Context()
	if _, err := pool.Exec(ctx, "CREATE TABLE t (id int PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "INSERT INTO t VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	_, err = pool.Exec(ctx, "INSERT INTO t VALUES (1)")
	if _, down := errors.AsType[*outage.Error](err); err == nil || down {
		t.Errorf("a duplicate key: %v, want an error that is no outage", err)
	}
	_, err = pool.Exec(ctx, "SELECT pg_terminate_backend(pg_backend_pid())")
	expectOutage(t, "a connection ended by an administrator", err)
	rows, err := pool.Query(ctx, "SELECT 1/0")
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	if _, down := errors.AsType[*outage.Error](err); err == nil || down {
		t.Errorf("a division by zero: %v, want an error that is no outage", err)
	}
	var n int
	err = pool.QueryRow(ctx, "SELECT pg_sleep(10)::text::int").Scan(&n)
	if err == nil {
		t.Fatal("a statement of 10s ended within the query timeout of 1s")
	}
	expectOutage(t, "a statement past the query timeout", err)
	_, err = pool.Acquire(canceled(ctx))
	if _, down := errors.AsType[*outage.Error](err); err == nil || down {
		t.Errorf("an acquire whose caller gave up: %v, want an error that is no outage", err)
	}
}

// hostPort is the host:port of a URL.
func hostPort(t *testing.T, rawURL string) string {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// through is dbURL with its host and port the proxy's.
func through(t *testing.T, dbURL string, proxy *enginetest.Proxy) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = proxy.Addr()
	return u.String()
}

func canceled(ctx context.Context) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	cancel()
	return ctx
}
