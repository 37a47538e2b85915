package datasource_test

// The starter through the whole service, as a user runs it: boottest
// starts a service that names it on port 0, and the tests speak HTTP to
// it, with PostgreSQL from GREETER_TEST_POSTGRES_URL (a database of each
// test's own), reached through a proxy where a test takes it away.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/config"
	fwdatasource "github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/starter/datasource"
	"github.com/springport/greeter/framework/testing/enginetest"
)

// poolConfig is what GET /pool says of the pgx pool the starter opened.
type poolConfig struct {
	Name                                 string
	MaxConns, MinConns, MinIdleConns     int32
	MaxConnIdleTime, MaxConnLifetime     time.Duration
	MaxConnLifetimeJitter, ConnectTimout time.Duration
	StatementTimeout, ApplicationName    string
	QueryTimeout                         time.Duration
}

// service is a small service on the starter: its routes read the pool,
// hold its connections, break them, and run transactions, so that the
// tests see what the starter does through HTTP.
func service(starter boot.Starter) boot.Service[struct{}] {
	var (
		mu   sync.Mutex
		held []*pgxpool.Conn
	)
	n := dispatch.Query[int32]("n")
	return boot.Service[struct{}]{
		Name:     "shortener",
		Starters: []boot.Starter{starter},
		Start: func(ctx context.Context, app *boot.App, _ struct{}) error {
			pool, err := datasource.RequirePool(app)
			if err != nil {
				return err
			}
			if _, err := pool.Exec(ctx, "CREATE TABLE IF NOT EXISTS links (code text PRIMARY KEY, v int NOT NULL DEFAULT 0)"); err != nil {
				return err
			}
			app.Routes(
				dispatch.Route{Method: "GET", Pattern: "/pool", Handler: dispatch.Returns(func(r *dispatch.Request) (poolConfig, error) {
					c := pool.Pgx().Config()
					p := poolConfig{Name: pool.Name(), MaxConns: c.MaxConns, MinConns: c.MinConns, MinIdleConns: c.MinIdleConns,
						MaxConnIdleTime: c.MaxConnIdleTime, MaxConnLifetime: c.MaxConnLifetime, MaxConnLifetimeJitter: c.MaxConnLifetimeJitter,
						ConnectTimout: c.ConnConfig.ConnectTimeout, QueryTimeout: pool.QueryTimeout()}
					err := pool.QueryRow(r.Context(), "SELECT current_setting('statement_timeout'), current_setting('application_name')").Scan(&p.StatementTimeout, &p.ApplicationName)
					return p, err
				})},
				// Takes n connections and keeps them until /release.
				dispatch.Route{Method: "POST", Pattern: "/hold", Inputs: []dispatch.Input{n}, Handler: dispatch.Runs(func(r *dispatch.Request) error {
					for range n.Get(r) {
						c, err := pool.Acquire(r.Context())
						if err != nil {
							return err
						}
						mu.Lock()
						held = append(held, c)
						mu.Unlock()
					}
					return nil
				}), Status: 204},
				dispatch.Route{Method: "POST", Pattern: "/release", Handler: dispatch.Runs(func(*dispatch.Request) error {
					mu.Lock()
					defer mu.Unlock()
					for _, c := range held {
						c.Release()
					}
					held = nil
					return nil
				}), Status: 204},
				dispatch.Route{Method: "GET", Pattern: "/count", Handler: dispatch.Returns(func(r *dispatch.Request) (int, error) {
					var count int
					err := pool.QueryRow(r.Context(), "SELECT count(*) FROM links").Scan(&count)
					return count, err
				})},
				// A link whose code is taken violates the primary key.
				dispatch.Route{Method: "POST", Pattern: "/links/{code}", Inputs: []dispatch.Input{code}, Handler: dispatch.Runs(func(r *dispatch.Request) error {
					_, err := pool.Exec(r.Context(), "INSERT INTO links (code) VALUES ($1)", code.Get(r))
					return err
				}), Status: 201},
				// Ends the connection it runs on, as an administrator's
				// pg_terminate_backend does: through the pool's Exec, and
				// through pgx's own pool, whose error goes back as it is.
				dispatch.Route{Method: "POST", Pattern: "/terminate", Handler: dispatch.Runs(func(r *dispatch.Request) error {
					_, err := pool.Exec(r.Context(), "SELECT pg_terminate_backend(pg_backend_pid())")
					return err
				}), Status: 204},
				dispatch.Route{Method: "POST", Pattern: "/terminate-raw", Handler: dispatch.Runs(func(r *dispatch.Request) error {
					_, err := pool.Pgx().Exec(r.Context(), "SELECT pg_terminate_backend(pg_backend_pid())")
					return err
				}), Status: 204},
				transferRoute(pool),
			)
			return nil
		},
	}
}

var (
	code      = dispatch.Path[string]("code")
	conflicts = dispatch.Query[int32]("conflicts")
	attempts  = dispatch.Query[int32]("attempts")
)

// transferRoute runs a SERIALIZABLE transaction with Transact that reads
// every link and adds one. In each of its first `conflicts` runs, another
// SERIALIZABLE transaction, on another connection, reads every link, adds
// one and commits between the first one's read and its write: the write
// skew that PostgreSQL's serializable isolation refuses, with a
// serialization failure (40001) for the first transaction. The answer is
// the number of runs.
func transferRoute(pool *fwdatasource.Pool) dispatch.Route {
	var links atomic.Int64 // numbers the links added
	return dispatch.Route{Method: "POST", Pattern: "/transfer", Inputs: []dispatch.Input{conflicts, attempts},
		Handler: dispatch.Returns(func(r *dispatch.Request) (string, error) {
			runs := 0
			opts := fwdatasource.TxOptions{TxOptions: pgx.TxOptions{IsoLevel: pgx.Serializable}, MaxAttempts: int(attempts.Get(r))}
			err := pool.Transact(r.Context(), opts, func(ctx context.Context, tx pgx.Tx) error {
				runs++
				var sum int
				if err := tx.QueryRow(ctx, "SELECT count(*) FROM links").Scan(&sum); err != nil {
					return err
				}
				if runs <= int(conflicts.Get(r)) {
					err := pool.Transact(ctx, fwdatasource.TxOptions{TxOptions: pgx.TxOptions{IsoLevel: pgx.Serializable}, MaxAttempts: 1},
						func(ctx context.Context, other pgx.Tx) error {
							if err := other.QueryRow(ctx, "SELECT count(*) FROM links").Scan(&sum); err != nil {
								return err
							}
							_, err := other.Exec(ctx, "INSERT INTO links (code) VALUES ($1)", fmt.Sprintf("other-%d", links.Add(1)))
							return err
						})
					if err != nil {
						return fmt.Errorf("the other transaction: %w", err)
					}
				}
				_, err := tx.Exec(ctx, "INSERT INTO links (code) VALUES ($1)", fmt.Sprintf("first-%d", links.Add(1)))
				return err
			})
			if err != nil {
				return "", fmt.Errorf("after %d runs: %w", runs, err)
			}
			return strconv.Itoa(runs), nil
		})}
}

// send sends a request to the instance's port.
func send(t *testing.T, s *boottest.Instance, method, path string) boottest.Response {
	t.Helper()
	return boottest.Send(t, nil, method, s.URL+path, "")
}

// readPool reads GET /pool.
func readPool(t *testing.T, s *boottest.Instance) poolConfig {
	t.Helper()
	r := send(t, s, "GET", "/pool")
	var p poolConfig
	if err := json.Unmarshal([]byte(r.Body), &p); r.Status != 200 || err != nil {
		t.Fatalf("GET /pool: %d %s (%v)", r.Status, r.Body, err)
	}
	return p
}

// TestHikariSettings: Hikari's settings under Spring's names set the
// pgx pool: its size, its idle connections, its timeouts and lifetimes,
// the statement timeout on the server, the pool's name; unset, they are
// Hikari's defaults (a pool of fixed size), but the timeouts a request
// waits for, which are shorter.
func TestHikariSettings(t *testing.T) {
	t.Parallel()
	url := enginetest.Postgres(t)
	for _, tt := range []struct {
		name string
		args []string
		want poolConfig
	}{
		{"defaults", nil, poolConfig{Name: "HikariPool-1", MaxConns: 10, MinConns: 10, MinIdleConns: 10,
			MaxConnIdleTime: 10 * time.Minute, MaxConnLifetime: 30 * time.Minute, ConnectTimout: 5 * time.Second,
			StatementTimeout: "5s", ApplicationName: "shortener", QueryTimeout: 5 * time.Second}},
		{"set", []string{"--app.datasource.hikari.maximum-pool-size=7", "--app.datasource.hikari.minimum-idle=3",
			"--app.datasource.hikari.connection-timeout=750ms", "--spring.datasource.hikari.idleTimeout=45000",
			"--app.datasource.hikari.max-lifetime=2m", "--app.datasource.hikari.pool-name=links-pool",
			"--app.jdbc.template.query-timeout=1500ms"},
			poolConfig{Name: "links-pool", MaxConns: 7, MinConns: 3, MinIdleConns: 3,
				MaxConnIdleTime: 45 * time.Second, MaxConnLifetime: 2 * time.Minute, ConnectTimout: 750 * time.Millisecond,
				StatementTimeout: "1500ms", ApplicationName: "shortener", QueryTimeout: 1500 * time.Millisecond}},
		// As Hikari: a minimum-idle above the size is the size; the data
		// source's name names the pool; 0 is no timeout and no retirement.
		{"hikari's rules", []string{"--app.datasource.hikari.maximum-pool-size=4", "--app.datasource.hikari.minimum-idle=20",
			"--app.datasource.name=links", "--app.datasource.hikari.idle-timeout=0", "--app.datasource.hikari.max-lifetime=0"},
			poolConfig{Name: "links", MaxConns: 4, MinConns: 4, MinIdleConns: 4,
				MaxConnIdleTime: 876000 * time.Hour, MaxConnLifetime: 876000 * time.Hour, ConnectTimout: 5 * time.Second,
				StatementTimeout: "5s", ApplicationName: "shortener", QueryTimeout: 5 * time.Second}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := boottest.Start(t, service(datasource.Starter), append([]string{"--app.datasource.url=" + url}, tt.args...), nil)
			got := readPool(t, s)
			// pgx adds its jitter to the lifetime; Hikari takes its variance
			// off: the sum is the lifetime set.
			got.MaxConnLifetime += got.MaxConnLifetimeJitter
			if got.MaxConnLifetimeJitter != 0 && got.MaxConnLifetimeJitter != got.MaxConnLifetime/40 {
				t.Errorf("the lifetime's jitter is %v, want 2.5%% of %v", got.MaxConnLifetimeJitter, got.MaxConnLifetime)
			}
			got.MaxConnLifetimeJitter = 0
			if got != tt.want {
				t.Errorf("the pool:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestBadSettings: a value Hikari would replace with its default, or
// that leaves no time, stops start-up naming the setting.
func TestBadSettings(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ arg, want string }{
		{"--app.datasource.hikari.maximum-pool-size=0", "want an integer from 1 to 10000"},
		{"--app.datasource.hikari.minimum-idle=-1", "want an integer from 0 to 10000"},
		{"--app.datasource.hikari.connection-timeout=100ms", "want 0 (none) or at least 250ms"},
		{"--app.datasource.hikari.idle-timeout=5s", "want 0 (none) or at least 10s"},
		{"--app.datasource.hikari.max-lifetime=10s", "want 0 (none) or at least 30s"},
		{"--app.jdbc.template.query-timeout=10ms", "want at least 100ms"},
		{"--app.datasource.url=jdbc:mysql://db/shop", "a JDBC URL of mysql; only PostgreSQL is supported"},
	} {
		args := []string{"--server.port=0", "--app.datasource.url=postgres://127.0.0.1:1/x", tt.arg}
		if strings.HasPrefix(tt.arg, "--app.datasource.url=") {
			// Given twice, the URL would be both, joined by a comma, as in Spring.
			args = []string{"--server.port=0", tt.arg}
		}
		report, err := boottest.FailToStart(t, service(datasource.Starter), args, nil)
		key, _, _ := strings.Cut(strings.TrimPrefix(tt.arg, "--"), "=")
		if err == nil || !strings.Contains(report, "Property: "+key) || !strings.Contains(report, tt.want) {
			t.Errorf("%s: %v; want a report on %s saying %q:\n%s", tt.arg, err, key, tt.want, report)
		}
	}
}

// TestDatabaseHealthAndReadiness: the pool is the db component of
// /actuator/health, in Spring's shape, and in readiness: DOWN, and
// readiness OUT_OF_SERVICE, while the database cannot be reached, with a
// request that needs it a 503; UP again when it can, without a restart.
func TestDatabaseHealthAndReadiness(t *testing.T) {
	t.Parallel()
	proxy, dbURL := behindProxy(t)
	s := boottest.Start(t, service(datasource.Starter), []string{"--app.datasource.url=" + dbURL,
		"--app.datasource.hikari.connection-timeout=1s", "--app.jdbc.template.query-timeout=1s",
		"--management.endpoint.health.show-details=always"}, nil)
	if r := send(t, s, "GET", "/actuator/health"); r.Status != 200 ||
		!strings.Contains(r.Body, `"db":{"status":"UP","details":{"database":"PostgreSQL","validationQuery":"isValid()"}}`) {
		t.Errorf("health: %d %s", r.Status, r.Body)
	}
	if r := send(t, s, "GET", "/actuator/health/readiness"); r.Status != 200 || !strings.Contains(r.Body, `"db":{"status":"UP"`) {
		t.Errorf("readiness: %d %s", r.Status, r.Body)
	}

	proxy.Cut() // connections refused
	if r := send(t, s, "GET", "/actuator/health/readiness"); r.Status != 503 ||
		!strings.HasPrefix(r.Body, `{"status":"OUT_OF_SERVICE"`) || !strings.Contains(r.Body, `"db":{"status":"DOWN"`) {
		t.Errorf("readiness with the database cut off: %d %s", r.Status, r.Body)
	}
	if r := send(t, s, "GET", "/actuator/health/liveness"); r.Status != 200 {
		t.Errorf("liveness with the database cut off: %d %s", r.Status, r.Body)
	}
	began := time.Now()
	r := send(t, s, "GET", "/count")
	if p, err := boottest.CheckProblem(r.Status, r.Header, r.Body); r.Status != 503 || err != nil || !strings.HasPrefix(p.Detail, "PostgreSQL is unavailable") {
		t.Errorf("a query with the database cut off: %d %s (%v)", r.Status, r.Body, err)
	}
	if took := time.Since(began); took >= fwdatasource.DefaultConnectionTimeout {
		t.Errorf("the query took %v to fail; the connection timeout of 1s does not bound it", took)
	}

	proxy.Restore()
	boottest.WaitFor(t, "readiness UP after the database came back", func() bool {
		return send(t, s, "GET", "/actuator/health/readiness").Status == 200
	})
	if r := send(t, s, "GET", "/count"); r.Status != 200 {
		t.Errorf("a query after the database came back: %d %s", r.Status, r.Body)
	}
}

// TestOutageRule: a connection that an administrator ends, through the
// pool's calls or pgx's own, and a database that refuses connections,
// are 503s naming PostgreSQL; a violated constraint is a 500, whose
// cause is only logged; a serialization failure that outlives the
// retries too.
func TestOutageRule(t *testing.T) {
	t.Parallel()
	proxy, dbURL := behindProxy(t)
	s := boottest.Start(t, service(datasource.Starter), []string{"--app.datasource.url=" + dbURL,
		"--app.datasource.hikari.connection-timeout=1s"}, nil)
	for _, path := range []string{"/terminate", "/terminate-raw"} {
		r := send(t, s, "POST", path)
		if p, err := boottest.CheckProblem(r.Status, r.Header, r.Body); r.Status != 503 || err != nil || !strings.HasPrefix(p.Detail, "PostgreSQL is unavailable") {
			t.Errorf("POST %s (admin shutdown, 57P01): %d %s (%v)", path, r.Status, r.Body, err)
		}
	}
	if r := send(t, s, "POST", "/links/abc"); r.Status != 201 {
		t.Fatalf("POST /links/abc: %d %s", r.Status, r.Body)
	}
	r := send(t, s, "POST", "/links/abc")
	if p, err := boottest.CheckProblem(r.Status, r.Header, r.Body); r.Status != 500 || err != nil || strings.Contains(p.Detail, "links_pkey") {
		t.Errorf("a duplicate key (23505): %d %s (%v); want a 500 that does not show the cause", r.Status, r.Body, err)
	}
	proxy.Cut()
	if r := send(t, s, "POST", "/links/xyz"); r.Status != 503 {
		t.Errorf("connection refused: %d %s", r.Status, r.Body)
	}
}

// TestTransactRetriesSerializationFailures: two SERIALIZABLE
// transactions that each read what the other writes conflict, and the
// server rolls the one that commits second back (40001); Transact runs
// it again, and the second run, without a conflict, commits. Conflicting
// on every run, it stops after the runs allowed: a 500, with what the
// other transactions committed kept and nothing of the first.
func TestTransactRetriesSerializationFailures(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, service(datasource.Starter), []string{"--app.datasource.url=" + enginetest.Postgres(t)}, nil)
	if r := send(t, s, "POST", "/transfer?conflicts=1&attempts=0"); r.Status != 200 || r.Body != "2" {
		t.Errorf("one conflict: %d %s; want it committed at the second run", r.Status, r.Body)
	}
	if r := send(t, s, "GET", "/count"); r.Body != "2" {
		t.Errorf("after one conflict, %s links; want the other's and the second run's, 2", r.Body)
	}
	if r := send(t, s, "POST", "/transfer?conflicts=5&attempts=3"); r.Status != 500 {
		t.Errorf("a conflict at every run: %d %s; want a 500 after 3 runs", r.Status, r.Body)
	}
	if r := send(t, s, "GET", "/count"); r.Body != "5" {
		t.Errorf("after 3 runs that conflicted, %s links; want the 3 others' more, 5", r.Body)
	}
	if !regexp.MustCompile(`after 3 runs: the transaction was rolled back 3 times in a row.*SQLSTATE 40001`).MatchString(s.Stdout.String()) {
		t.Errorf("the log does not say the transaction failed 3 times with a serialization failure:\n%s", boottest.Tail(s.Stdout.String(), 20))
	}
}

// TestPoolMeters: the pool's meters are HikariCP's as Micrometer's
// binder names them, tagged with the pool's name, and Spring's
// DataSource's; they count the connections held, the acquires that wait
// and those the connection timeout cut off.
func TestPoolMeters(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, service(datasource.Starter), []string{"--app.datasource.url=" + enginetest.Postgres(t),
		"--app.datasource.hikari.maximum-pool-size=3", "--app.datasource.hikari.minimum-idle=2",
		"--app.datasource.hikari.pool-name=links-pool", "--app.datasource.hikari.connection-timeout=500ms",
		"--management.endpoints.web.exposure.include=prometheus"}, nil)
	sample := func(name string) float64 {
		t.Helper()
		body := send(t, s, "GET", "/actuator/prometheus").Body
		m := regexp.MustCompile(`(?m)^` + name + `\{([^}]*)\} (\S+)$`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("/actuator/prometheus has no %s:\n%s", name, body)
		}
		want := `pool="links-pool"`
		if strings.HasPrefix(name, "jdbc_") {
			want = `name="dataSource"`
		}
		if !strings.Contains(m[1], want) {
			t.Errorf("%s is tagged %s, want %s", name, m[1], want)
		}
		v, _ := strconv.ParseFloat(m[2], 64)
		return v
	}
	// The start-up's CREATE TABLE may have opened one more.
	boottest.WaitFor(t, "the 2 idle connections of minimum-idle", func() bool { return sample("hikaricp_connections_idle") >= 2 })
	for name, want := range map[string]float64{"hikaricp_connections_max": 3, "hikaricp_connections_min": 2, "jdbc_connections_max": 3, "jdbc_connections_min": 2} {
		if got := sample(name); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if got := sample("hikaricp_connections_creation_seconds_count"); got < 2 {
		t.Errorf("hikaricp_connections_creation_seconds_count = %v, want at least the 2 idle", got)
	}

	if r := send(t, s, "POST", "/hold?n=3"); r.Status != 204 {
		t.Fatalf("POST /hold?n=3: %d %s", r.Status, r.Body)
	}
	for name, want := range map[string]float64{"hikaricp_connections_active": 3, "hikaricp_connections": 3, "jdbc_connections_active": 3} {
		if got := sample(name); got != want {
			t.Errorf("with every connection held, %s = %v, want %v", name, got, want)
		}
	}
	timeouts := sample("hikaricp_connections_timeout_total")
	done := make(chan boottest.Response)
	go func() { done <- boottest.Send(t, nil, "GET", s.URL+"/count", "") }()
	boottest.WaitFor(t, "an acquire pending", func() bool { return sample("hikaricp_connections_pending") == 1 })
	if r := <-done; r.Status != 503 {
		t.Errorf("a query while every connection is held: %d %s; want a 503 after the connection timeout", r.Status, r.Body)
	}
	if got := sample("hikaricp_connections_timeout_total"); got != timeouts+1 {
		t.Errorf("hikaricp_connections_timeout_total = %v, want one more than %v", got, timeouts)
	}
	if got := sample("hikaricp_connections_pending"); got != 0 {
		t.Errorf("hikaricp_connections_pending = %v after the timeout, want 0", got)
	}
	usages := sample("hikaricp_connections_usage_seconds_count")
	if r := send(t, s, "POST", "/release"); r.Status != 204 {
		t.Fatalf("POST /release: %d", r.Status)
	}
	if got := sample("hikaricp_connections_usage_seconds_count"); got < usages+3 {
		t.Errorf("hikaricp_connections_usage_seconds_count = %v after 3 were given back, want at least %v", got, usages+3)
	}
	if got := sample("hikaricp_connections_acquire_seconds_count"); got < 3 {
		t.Errorf("hikaricp_connections_acquire_seconds_count = %v, want at least the 3 held", got)
	}
}

// TestMigrateAndConfigure: the service's Configure sets every
// connection, and its Migrate runs once the pool answers, before Start,
// on a connection without the statement timeout; one with settings of
// its own (BindMigrate) binds them with the starter's; a Migrate that
// fails stops start-up, reported as the database's that
// app.datasource.url names.
func TestMigrateAndConfigure(t *testing.T) {
	t.Parallel()
	url := enginetest.Postgres(t)
	var timeoutWhileMigrating string
	starter := datasource.With(datasource.Options{
		Configure: func(c *pgxpool.Config) { c.ConnConfig.RuntimeParams["application_name"] = "configured" },
		Migrate: func(ctx context.Context, _ *boot.App, pool *fwdatasource.Pool) error {
			conn, err := pgx.ConnectConfig(ctx, pool.MigrationConfig())
			if err != nil {
				return err
			}
			defer conn.Close(ctx)
			_, err = conn.Exec(ctx, "CREATE TABLE links (code text PRIMARY KEY, v int NOT NULL DEFAULT 0); INSERT INTO links VALUES ('migrated', 0)")
			if err == nil {
				err = conn.QueryRow(ctx, "SELECT current_setting('statement_timeout')").Scan(&timeoutWhileMigrating)
			}
			return err
		},
	})
	s := boottest.Start(t, service(starter), []string{"--app.datasource.url=" + url}, nil)
	if r := send(t, s, "GET", "/count"); r.Body != "1" {
		t.Errorf("GET /count: %d %s; want the migration's link", r.Status, r.Body)
	}
	if p := readPool(t, s); p.ApplicationName != "configured" || p.StatementTimeout != "5s" {
		t.Errorf("the connections' application_name %q and statement_timeout %q; want Configure's and the query timeout", p.ApplicationName, p.StatementTimeout)
	}
	if timeoutWhileMigrating != "0" {
		t.Errorf("the migration ran with statement_timeout %q, want none (0)", timeoutWhileMigrating)
	}

	// A migration with settings of its own binds them with the starter's:
	// here Flyway's switch, app.flyway.enabled.
	bound := func(enabled string) *boottest.Instance {
		starter := datasource.With(datasource.Options{BindMigrate: func(b *config.Binder) datasource.MigrateFunc {
			if !config.Bind(b, "app.flyway.enabled", true, config.Bool, "migrate at start-up") {
				return nil
			}
			return func(ctx context.Context, _ *boot.App, pool *fwdatasource.Pool) error {
				_, err := pool.Exec(ctx, "CREATE TABLE IF NOT EXISTS links (code text PRIMARY KEY, v int NOT NULL DEFAULT 0); INSERT INTO links VALUES ('bound-migration', 0) ON CONFLICT DO NOTHING")
				return err
			}
		}})
		return boottest.Start(t, service(starter), []string{"--app.datasource.url=" + enginetest.Postgres(t), "--app.flyway.enabled=" + enabled}, nil)
	}
	for enabled, want := range map[string]string{"true": "1", "false": "0"} {
		if r := send(t, bound(enabled), "GET", "/count"); r.Body != want {
			t.Errorf("with app.flyway.enabled=%s, GET /count: %d %s; want %s", enabled, r.Status, r.Body, want)
		}
	}

	failing := datasource.With(datasource.Options{Migrate: func(context.Context, *boot.App, *fwdatasource.Pool) error {
		return errors.New("the schema is at version 9, newer than this binary knows")
	}})
	report, err := boottest.FailToStart(t, service(failing), []string{"--server.port=0", "--app.datasource.url=" + url}, nil)
	for _, want := range []string{"PostgreSQL database", "Property: app.datasource.url", "the schema is at version 9"} {
		if err == nil || !strings.Contains(report, want) {
			t.Errorf("a failed migration: %v; the report lacks %q:\n%s", err, want, report)
		}
	}
}

// TestUnreachableAtStart: a database that cannot be reached stops
// start-up, naming the setting that names it (the R2DBC one, when only
// it is set), with the password masked.
func TestUnreachableAtStart(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ arg, key string }{
		{"--spring.datasource.url=jdbc:postgresql://127.0.0.1:1/links?user=app&password=hunter2", "spring.datasource.url"},
		{"--spring.r2dbc.url=r2dbc:postgresql://app:hunter2@127.0.0.1:1/links", "spring.r2dbc.url"},
	} {
		report, err := boottest.FailToStart(t, service(datasource.Starter), []string{"--server.port=0", tt.arg}, nil)
		for _, want := range []string{"Property: " + tt.key, "connecting to PostgreSQL at 127.0.0.1:1/links as app", "connection refused"} {
			if err == nil || !strings.Contains(report, want) {
				t.Errorf("%s: %v; the report lacks %q:\n%s", tt.arg, err, want, report)
			}
		}
		if strings.Contains(report, "hunter2") {
			t.Errorf("%s: the report shows the password:\n%s", tt.arg, report)
		}
	}
}

// TestNoURL: without a URL the starter opens nothing, and a service that
// requires a pool stops start-up naming app.datasource.url, as Spring
// Boot's "Failed to configure a DataSource"; without the starter, naming
// the starter.
func TestNoURL(t *testing.T) {
	t.Parallel()
	report, err := boottest.FailToStart(t, service(datasource.Starter), []string{"--server.port=0"}, nil)
	for _, want := range []string{"Property: app.datasource.url", "Origin: the default", "needs a PostgreSQL database, and none is set"} {
		if err == nil || !strings.Contains(report, want) {
			t.Errorf("no URL: %v; the report lacks %q:\n%s", err, want, report)
		}
	}
	// A service that asks for a pool without naming the starter is told
	// which to add.
	without := service(datasource.Starter)
	without.Starters = nil
	report, err = boottest.FailToStart(t, without, []string{"--server.port=0"}, nil)
	if err == nil || !strings.Contains(report, "comes with the starter "+boot.DataSourceStarter) {
		t.Errorf("no starter: %v; the report does not name the starter:\n%s", err, report)
	}
}

// TestURLWithoutTheStarter: a service that does not name the starter and
// is given a database stops start-up, naming the setting, where it was
// set, and the starter to add; other datasource settings are warned
// about as read by nothing, naming the starter.
func TestURLWithoutTheStarter(t *testing.T) {
	t.Parallel()
	plain := boot.Service[struct{}]{Name: "plain", Start: func(context.Context, *boot.App, struct{}) error { return nil }}
	for _, tt := range []struct {
		args []string
		env  map[string]string
		want []string
	}{
		{[]string{"--spring.datasource.url=postgres://db/links"}, nil,
			[]string{"Property: spring.datasource.url", "Origin: command-line argument", boot.DataSourceStarter}},
		{nil, map[string]string{"SPRING_DATASOURCE_URL": "jdbc:postgresql://db/links"},
			[]string{"Property: app.datasource.url", "Origin: environment variable SPRING_DATASOURCE_URL", boot.DataSourceStarter}},
		{[]string{"--app.r2dbc.url=r2dbc:postgresql://db/links"}, nil,
			[]string{"Property: app.r2dbc.url", boot.DataSourceStarter}},
	} {
		report, err := boottest.FailToStart(t, plain, append([]string{"--server.port=0"}, tt.args...), tt.env)
		for _, want := range tt.want {
			if err == nil || !strings.Contains(report, want) {
				t.Errorf("%v %v: %v; the report lacks %q:\n%s", tt.args, tt.env, err, want, report)
			}
		}
	}
	s := boottest.Start(t, plain, []string{"--spring.datasource.hikari.maximumPoolSize=5", "--app.jdbc.template.query-timeout=2s",
		"--spring.datasource.druid.url=jdbc:mysql://db/links"}, nil)
	warnings := regexp.MustCompile(`(?m)^.*level=WARN.*$`).FindAllString(s.Stdout.String(), -1)
	for _, key := range []string{"spring.datasource.hikari.maximumPoolSize", "app.jdbc.template.query-timeout"} {
		i := slices.IndexFunc(warnings, func(w string) bool { return strings.Contains(w, key) })
		if i < 0 || !strings.Contains(warnings[i], "read by the starter "+boot.DataSourceStarter) {
			t.Errorf("%s without the starter is not warned about naming it:\n%s", key, strings.Join(warnings, "\n"))
		}
	}
	// Druid's keys are read by no starter: the hint does not say they are.
	i := slices.IndexFunc(warnings, func(w string) bool { return strings.Contains(w, "spring.datasource.druid.url") })
	if i < 0 || strings.Contains(warnings[i], boot.DataSourceStarter) {
		t.Errorf("Druid's key is not warned about, or is said to be the starter's:\n%s", strings.Join(warnings, "\n"))
	}
}

// behindProxy returns a database of the test's own, and its URL through
// a proxy the test controls.
func behindProxy(t *testing.T) (*enginetest.Proxy, string) {
	t.Helper()
	u, err := url.Parse(enginetest.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := enginetest.NewProxy(t, u.Host)
	u.Host = proxy.Addr()
	return proxy, u.String()
}

// TestFlywayThroughBindMigrate: Flyway's migrations (framework/datasource/
// flyway) run from the starter, as framework.md shows: Flyway, given as
// BindMigrate, binds app.flyway.* with the starter's settings, and
// migrates the service's embedded db/migration on a connection of its own
// before Start, logging each migration applied.
func TestFlywayThroughBindMigrate(t *testing.T) {
	t.Parallel()
	resources := fstest.MapFS{
		"db/migration/V1__links.sql":  {Data: []byte("CREATE TABLE links (code text PRIMARY KEY, v int NOT NULL DEFAULT 0);\n")},
		"db/migration/V2__first.sql":  {Data: []byte("INSERT INTO links (code) VALUES ('first');\n")},
		"db/migration/V3__second.sql": {Data: []byte("INSERT INTO links (code) VALUES ('second');\n")},
	}
	starter := datasource.With(datasource.Options{BindMigrate: datasource.Flyway(resources)})
	url := enginetest.Postgres(t)
	s := boottest.Start(t, service(starter), []string{"--app.datasource.url=" + url}, nil)
	if r := send(t, s, "GET", "/count"); r.Body != "2" {
		t.Errorf("GET /count: %d %s; want the 2 links the migrations inserted", r.Status, r.Body)
	}
	var applied int
	if err := connect(t, url).QueryRow(t.Context(), "SELECT count(*) FROM flyway_schema_history WHERE success").Scan(&applied); err != nil || applied != 3 {
		t.Errorf("flyway_schema_history: %d successful rows (%v), want 3", applied, err)
	}
	s.WaitForLog(t, regexp.MustCompile(`PostgreSQL schema migrated.*version=3.*file=classpath:db/migration/V3__second.sql`))
	// app.flyway.enabled=false migrates nothing.
	off := enginetest.Postgres(t)
	boottest.Start(t, service(starter), []string{"--app.datasource.url=" + off, "--app.flyway.enabled=false"}, nil)
	var history bool
	if err := connect(t, off).QueryRow(t.Context(), "SELECT to_regclass('flyway_schema_history') IS NOT NULL").Scan(&history); err != nil || history {
		t.Errorf("with app.flyway.enabled=false, flyway_schema_history exists: %v %v", history, err)
	}
	// Its settings are bound with the starter's: a bad one stops start-up,
	// reported with them.
	report, err := boottest.FailToStart(t, service(starter), []string{"--server.port=0", "--app.datasource.url=" + url, "--app.flyway.enabled=maybe"}, nil)
	if err == nil || !strings.Contains(report, "Property: app.flyway.enabled") {
		t.Errorf("a bad app.flyway.enabled: %v\n%s", err, report)
	}
}

// connect is a connection of the test's own to the database of url, closed
// when the test ends.
func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}
