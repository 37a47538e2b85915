// Package datasource is the framework's adapter of pgx, the PostgreSQL
// driver: the connection pool that Spring Boot's DataSource
// auto-configuration makes of spring.datasource.* and HikariCP, for a
// service to keep its data in PostgreSQL. It is the framework's one
// adapter of pgx (the test helpers enginetest and pgtest use pgx too, for
// tests); the starter framework/starter/datasource binds its settings and
// opens it, and a service that does not name the starter does not link
// it.
//
//   - Open makes the pool (pgxpool) from the settings, under HikariCP's
//     meanings (Options), checks that the server answers, and names
//     the database in its errors without the password.
//   - URL and R2DBCURL read the URLs a Spring user writes: postgres://,
//     JDBC's jdbc:postgresql://, R2DBC's r2dbc:postgresql://, several
//     hosts for a fail-over list.
//   - Classify is the outage rule: which of pgx's errors mean that the
//     database is out of reach (an *outage.Error, a 503) and which are a
//     fault (a 500). The Pool's methods apply it; a store that calls pgx
//     itself passes its errors through it.
//   - Pool.Transact runs a transaction, and runs it again when the server
//     rolled it back for a serialization failure (40001) or a deadlock
//     (40P01), a bounded number of times.
//   - Pool.Stats counts the pool as HikariCP's meters do (active, idle,
//     pending, the acquire, creation and usage times), for the
//     hikaricp_connections* meters.
//   - The pool lets go of every connection it holds when a statement
//     finds its server gone or read-only, so that a failover to a
//     promoted standby is followed at once (failover.go).
//   - Idle connections are pinged before they are lent and every
//     keepalive, within the validation timeout, and a connection given
//     up says goodbye within the connection timeout, so that a network
//     partition that lost the connections leaves none in the pool, and
//     holds no place of it for long (keepalive.go, closing.go).
package datasource

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/multitracer"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Defaults for the zero values of Options: HikariCP's, but for the
// timeouts that a request waits for, shorter than Hikari's 30 s so that
// an outage is a prompt 503 rather than a hung client (decision 6).
const (
	DefaultPoolName          = "HikariPool-1" // the name HikariCP gives the first pool of a JVM
	DefaultMaxPoolSize       = 10
	DefaultConnectionTimeout = 5 * time.Second
	DefaultIdleTimeout       = 10 * time.Minute
	DefaultMaxLifetime       = 30 * time.Minute
	DefaultQueryTimeout      = 5 * time.Second
	// DefaultValidationTimeout is shorter than Hikari's 5 s, which would
	// fill the whole 5 s connection timeout it must fit in: a dead idle
	// connection costs an acquire this long before it goes on to another
	// (keepalive.go).
	DefaultValidationTimeout = time.Second
	DefaultKeepaliveTime     = 2 * time.Minute // Hikari's since 5.1
)

// Options configure Open, with HikariCP's meanings. The zero value of
// each field but URL picks its default; a negative duration is "none"
// (a 0 in Hikari's settings: never retired, never timed out).
type Options struct {
	// URL is a postgres:// URL or key/value DSN as pgx takes it (URL and
	// R2DBCURL turn a JDBC or R2DBC URL into one); several hosts are a
	// fail-over list. Its pool_* parameters are pgx's, overridden by the
	// fields below.
	URL string
	// Username and Password override the URL's when set. The password is
	// never shown.
	Username, Password string
	// PoolName names the pool in the meters (tag pool) and the logs, as
	// hikari.pool-name does (default HikariPool-1).
	PoolName string
	// MaxPoolSize is the most connections the pool holds, idle and in
	// use (hikari.maximum-pool-size; default 10).
	MaxPoolSize int32
	// MinIdle is the idle connections the pool keeps open, opened in the
	// background, and below which idle ones are not retired
	// (hikari.minimum-idle). 0 keeps none, pgx's default; HikariCP's, which
	// the starter takes, is MaxPoolSize: a pool of fixed size. Above
	// MaxPoolSize it is MaxPoolSize, as Hikari takes it.
	MinIdle int32
	// ConnectionTimeout bounds waiting for a connection of the pool,
	// opening a new one included, and dialing one
	// (hikari.connection-timeout; default 5 s, Hikari's 30 s).
	ConnectionTimeout time.Duration
	// IdleTimeout retires a connection idle this long while the pool holds
	// more than MinIdle (hikari.idle-timeout; default 10 min).
	IdleTimeout time.Duration
	// MaxLifetime retires a connection this old once it is idle, each
	// connection a little before (up to 2.5% of it), as Hikari spreads
	// them so that they do not all end at once (hikari.max-lifetime;
	// default 30 min).
	MaxLifetime time.Duration
	// ValidationTimeout bounds the ping that checks an idle connection
	// before it is lent, and the keepalive's (hikari.validation-timeout;
	// default 1 s, Hikari's 5 s; at most ConnectionTimeout). A connection
	// that does not answer within it is closed (keepalive.go).
	ValidationTimeout time.Duration
	// KeepaliveTime is how often the idle connections are pinged, so that
	// those a network cut off without a word are found and closed
	// (hikari.keepalive-time; default 2 min, as Hikari's; none when it is
	// not below MaxLifetime, as in Hikari).
	KeepaliveTime time.Duration
	// QueryTimeout bounds each statement: the server cancels one that
	// runs longer (statement_timeout), and the Pool's methods wait no
	// longer for one (app.jdbc.template.query-timeout; default 5 s).
	QueryTimeout time.Duration
	// ApplicationName names the connections in pg_stat_activity, unless
	// the URL names them (application_name, JDBC's ApplicationName).
	ApplicationName string
	// Configure, when set, adjusts pgx's configuration after the fields
	// above were applied and before the pool opens: runtime parameters of
	// every connection (default_transaction_isolation), hooks, a tracer
	// of its own (kept beside the pool's).
	Configure func(*pgxpool.Config)
	// Logger logs the pool's start (nil: nothing).
	Logger *slog.Logger
}

// Pool is a pool of connections to one PostgreSQL database.
type Pool struct {
	pool   *pgxpool.Pool
	name   string
	target string
	// queryTimeout bounds each statement (Options.QueryTimeout); 0: none.
	queryTimeout time.Duration
	minIdle      int32
	// migration is the connections' configuration without the statement
	// timeout, for a migration, which may rightly take longer.
	migration *pgx.ConnConfig
	meter     *meter
	validator *validator
}

// Open builds the pool, and checks that the server answers (bounded by
// the connection timeout). Its errors say what failed and never contain
// the password; when the server could not be reached the error wraps an
// *outage.Error.
func Open(ctx context.Context, opts Options) (*Pool, error) {
	p, err := open(ctx, opts)
	if err != nil {
		return nil, redact(err, opts.URL, opts.Username, opts.Password)
	}
	return p, nil
}

func open(ctx context.Context, opts Options) (*Pool, error) {
	cfg, err := pgxpool.ParseConfig(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("the PostgreSQL URL is not valid: %w", err)
	}
	if opts.Username != "" {
		cfg.ConnConfig.User = opts.Username
	}
	if opts.Password != "" {
		cfg.ConnConfig.Password = opts.Password
	}
	p := &Pool{name: cmp.Or(opts.PoolName, DefaultPoolName), target: describe(cfg)}
	connectionTimeout := duration(opts.ConnectionTimeout, DefaultConnectionTimeout)
	cfg.ConnConfig.ConnectTimeout = connectionTimeout
	if connectionTimeout < never {
		cfg.ConnConfig.DialFunc = boundedDial(cfg.ConnConfig.DialFunc, connectionTimeout) // closing.go
	}
	cfg.MaxConns = cmp.Or(opts.MaxPoolSize, DefaultMaxPoolSize)
	p.minIdle = min(max(opts.MinIdle, 0), cfg.MaxConns)
	// Hikari keeps minimum-idle connections idle, and retires idle ones
	// only down to that many: MinIdleConns opens them, MinConns keeps the
	// health check from retiring them (and opening them again).
	cfg.MinIdleConns, cfg.MinConns = p.minIdle, p.minIdle
	cfg.MaxConnIdleTime = duration(opts.IdleTimeout, DefaultIdleTimeout)
	cfg.MaxConnLifetime = duration(opts.MaxLifetime, DefaultMaxLifetime)
	if cfg.MaxConnLifetime < never {
		// pgx adds its jitter where Hikari takes its variance off, so the
		// lifetime is shortened by the jitter: no connection outlives
		// max-lifetime, as in Hikari.
		cfg.MaxConnLifetimeJitter = cfg.MaxConnLifetime / 40
		cfg.MaxConnLifetime -= cfg.MaxConnLifetimeJitter
	}
	// Hikari's housekeeper runs every 30 s: idle connections are retired
	// and the idle ones made up as often (pgx's default is a minute).
	cfg.HealthCheckPeriod = 30 * time.Second
	p.validator = newValidator(min(duration(opts.ValidationTimeout, DefaultValidationTimeout), connectionTimeout))
	cfg.ShouldPing = p.validator.shouldPing
	keepalive := duration(opts.KeepaliveTime, DefaultKeepaliveTime)
	if keepalive >= never || keepalive >= duration(opts.MaxLifetime, DefaultMaxLifetime) {
		keepalive = 0 // none, as Hikari disables one not below max-lifetime
	}

	p.queryTimeout = duration(opts.QueryTimeout, DefaultQueryTimeout)
	_, ownTimeout := cfg.ConnConfig.RuntimeParams["statement_timeout"]
	ownTimeout = !ownTimeout && p.queryTimeout < never
	if ownTimeout {
		// The server gives up on a statement when the client does.
		cfg.ConnConfig.RuntimeParams["statement_timeout"] = strconv.FormatInt(p.queryTimeout.Milliseconds(), 10)
	}
	if p.queryTimeout == never {
		p.queryTimeout = 0
	}
	if _, set := cfg.ConnConfig.RuntimeParams["application_name"]; !set && opts.ApplicationName != "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = opts.ApplicationName
	}
	if opts.Configure != nil {
		opts.Configure(cfg)
	}
	p.migration = cfg.ConnConfig.Copy()
	if ownTimeout {
		delete(p.migration.RuntimeParams, "statement_timeout")
	}
	p.meter = &meter{}
	if connectionTimeout < never {
		p.meter.acquireTimeout = connectionTimeout
	}
	reset := &poolReset{} // failover.go
	tracers := []pgx.QueryTracer{p.meter, reset}
	if cfg.ConnConfig.Tracer != nil {
		tracers = append(tracers, cfg.ConnConfig.Tracer)
	}
	cfg.ConnConfig.Tracer = multitracer.New(tracers...)

	if p.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", p.target, err)
	}
	reset.watch(p.pool)
	p.validator.start(p.pool, keepalive)
	ctx, cancel := context.WithTimeout(ctx, connectionTimeout)
	defer cancel()
	if err := p.pool.Ping(ctx); err != nil {
		p.Close()
		return nil, fmt.Errorf("connecting to %s: %w", p.target, Classify(err))
	}
	if opts.Logger != nil {
		opts.Logger.Info("PostgreSQL connected", "pool", p.name, "target", p.target,
			"max_conns", cfg.MaxConns, "min_idle", p.minIdle)
	}
	return p, nil
}

// never is a duration no pool lives to see (a hundred years): Hikari's 0
// (no timeout, no retirement), which pgx would take as "at once". It is
// far enough below the largest duration that adding it to a time does not
// overflow.
const never = 100 * 365 * 24 * time.Hour

// duration is d, or def when d is 0, or never when d is negative.
func duration(d, def time.Duration) time.Duration {
	switch {
	case d < 0:
		return never
	case d == 0:
		return def
	}
	return d
}

// Close waits for every connection in use to be released, and closes
// the pool. It may be called more than once.
func (p *Pool) Close() {
	p.validator.close()
	p.pool.Close()
}

// Pgx is pgx's pool itself, for what the Pool's methods do not offer
// (SendBatch, CopyFrom, a listener's connection). Its errors are pgx's:
// pass them through Classify. Every acquire from it is bounded by the
// connection timeout, and counted by the meters, as the Pool's own.
func (p *Pool) Pgx() *pgxpool.Pool { return p.pool }

// Name is the pool's name (Options.PoolName).
func (p *Pool) Name() string { return p.name }

// String names the database the pool reaches, without the password:
// "PostgreSQL at host:port/database as user".
func (p *Pool) String() string { return p.target }

// QueryTimeout is the bound on each statement (Options.QueryTimeout); 0
// for none.
func (p *Pool) QueryTimeout() time.Duration { return p.queryTimeout }

// MaxConns is the most connections the pool holds.
func (p *Pool) MaxConns() int32 { return p.pool.Config().MaxConns }

// MigrationConfig returns a copy of the connections' configuration
// without the statement timeout, for a migration to open a connection of
// its own: one that may rightly run longer than a request, and hold a
// session lock that must not outlive it in the pool.
func (p *Pool) MigrationConfig() *pgx.ConnConfig { return p.migration.Copy() }

// Ping checks that the server answers, within the query timeout; the
// error wraps an *outage.Error when it does not.
func (p *Pool) Ping(ctx context.Context) error {
	ctx, cancel := p.bound(ctx)
	defer cancel()
	if err := p.pool.Ping(ctx); err != nil {
		return fmt.Errorf("pinging PostgreSQL: %w", Classify(err))
	}
	return nil
}

// bound is ctx bounded by the query timeout, when there is one.
func (p *Pool) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if p.queryTimeout == 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, p.queryTimeout)
}

// Exec runs a statement that returns no rows, within the query timeout;
// its error has been through Classify.
func (p *Pool) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	ctx, cancel := p.bound(ctx)
	defer cancel()
	tag, err := p.pool.Exec(ctx, sql, args...)
	return tag, Classify(err)
}

// QueryRow runs a query that returns at most one row, within the query
// timeout; the error of the row's Scan has been through Classify
// (pgx.ErrNoRows stays pgx.ErrNoRows).
func (p *Pool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	ctx, cancel := p.bound(ctx)
	return row{p.pool.QueryRow(ctx, sql, args...), cancel}
}

// Query runs a query, within the query timeout, reading its rows
// included; the errors of the rows (Err, Scan) have been through
// Classify. Close the rows (pgx.CollectRows does).
func (p *Pool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	ctx, cancel := p.bound(ctx)
	rows, err := p.pool.Query(ctx, sql, args...)
	if err != nil {
		cancel()
		return nil, Classify(err)
	}
	return &classifiedRows{Rows: rows, cancel: cancel}, nil
}

// Acquire takes a connection of the pool, waiting at most the connection
// timeout (or as ctx allows); release it when done. The error has been
// through Classify.
func (p *Pool) Acquire(ctx context.Context) (*pgxpool.Conn, error) {
	c, err := p.pool.Acquire(ctx)
	return c, Classify(err)
}

// row is a pgx.Row whose Scan classifies its error and ends the bound.
type row struct {
	pgx.Row
	cancel context.CancelFunc
}

func (r row) Scan(dest ...any) error {
	defer r.cancel()
	return Classify(r.Row.Scan(dest...))
}

// classifiedRows are pgx.Rows whose errors are classified, and whose
// Close ends the bound.
type classifiedRows struct {
	pgx.Rows
	cancel context.CancelFunc
}

func (r *classifiedRows) Close() {
	r.Rows.Close()
	r.cancel()
}

func (r *classifiedRows) Err() error { return Classify(r.Rows.Err()) }

func (r *classifiedRows) Scan(dest ...any) error { return Classify(r.Rows.Scan(dest...)) }

// describe names the database that cfg reaches, for error messages and
// logs, without the password.
func describe(cfg *pgxpool.Config) string {
	c := cfg.ConnConfig
	return fmt.Sprintf("PostgreSQL at %s:%d/%s as %s", c.Host, c.Port, c.Database, c.User)
}
