// Package datasource is the starter of a PostgreSQL connection pool, as
// Spring Boot's spring-boot-starter-jdbc with its DataSource
// auto-configuration and HikariCP: a service names it in
// boot.Service.Starters, and app.datasource.url (spring.datasource.url: a
// postgres:// URL, or a JDBC one, several hosts for a fail-over list)
// then opens a pool (framework/datasource, over pgx) with HikariCP's
// settings under their names (app.datasource.hikari.*), before the
// service's Start, which gets it with Pool. The pool is in
// /actuator/health as db, and so in readiness; its meters are HikariCP's
// as Micrometer names them (hikaricp_connections_active…, tagged
// pool=<pool-name>) and Spring's DataSource's (jdbc_connections_*); an
// error of pgx that means the database is out of reach is a 503
// whichever route returns it; a database that cannot be reached stops
// start-up, naming the setting.
//
// A service that does not name it does not link pgx, and one given
// app.datasource.url is refused, naming this starter.
package datasource

import (
	"context"
	"errors"
	"io/fs"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/datasource/flyway"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/metrics"
)

// logger is the framework's logger <service>.datasource.
const logger = "datasource"

// Starter opens the pool that app.datasource.url names, with the
// settings alone.
var Starter = With(Options{})

// Options are what a service adds to the starter, as a Spring
// application adds beans that the auto-configuration picks up.
type Options struct {
	// Configure, when set, adjusts pgx's configuration of the pool after
	// the settings were applied and before it opens (see
	// datasource.Options.Configure): what every connection of the
	// service needs (default_transaction_isolation, a search_path, a
	// tracer).
	Configure func(*pgxpool.Config)
	// Migrate, when set, brings the database's schema to the version the
	// service knows, once the pool answers and before Service.Start, as
	// Spring Boot runs Flyway or Liquibase before the beans that use the
	// DataSource. Its error stops start-up, reported as the database's
	// that app.datasource.url names. It should migrate on connections of
	// its own (datasource.Pool.MigrationConfig), under a lock, so that
	// instances starting together migrate once.
	Migrate MigrateFunc
	// BindMigrate, when set, binds the migration's own settings (Flyway's
	// app.flyway.*) with the starter's, so that --help lists them and a
	// bad one is reported with the others, and returns the Migrate to run
	// (nil: none), in place of Migrate.
	BindMigrate func(b *config.Binder) MigrateFunc
}

// A MigrateFunc migrates the schema of the database that pool reaches;
// see Options.Migrate.
type MigrateFunc func(ctx context.Context, a *boot.App, pool *datasource.Pool) error

// With returns the starter with o. A service names one datasource
// starter: this one or Starter.
func With(o Options) boot.Starter {
	return boot.Starter{
		Name: boot.DataSourceStarter,
		Bind: func(b *config.Binder) func(context.Context, *boot.App) error {
			s := bind(b)
			// o is the starter's, shared by every run of the service
			// (tests run several at once): each run's Migrate is its own.
			run := o
			if o.BindMigrate != nil {
				run.Migrate = o.BindMigrate(b)
			}
			return func(ctx context.Context, a *boot.App) error {
				boot.Provide(a, named{})
				if s.opts.URL == "" {
					return nil
				}
				return start(ctx, a, s, run)
			}
		},
	}
}

// Pool returns the pool that the starter opened, and false when it
// opened none: app.datasource.url (and app.r2dbc.url) are unset, or the
// service does not name the starter. A service whose data may live
// elsewhere (greeter's messages, in memory) asks so.
func Pool(a *boot.App) (*datasource.Pool, bool) { return boot.Provided[*datasource.Pool](a) }

// RequirePool returns the pool that the starter opened, or, when it
// opened none, the error that stops start-up naming app.datasource.url,
// as Spring Boot stops a service that needs a DataSource when no URL is
// set ("Failed to configure a DataSource: 'url' attribute is not
// specified").
func RequirePool(a *boot.App) (*datasource.Pool, error) {
	if p, ok := Pool(a); ok {
		return p, nil
	}
	if _, ok := boot.Provided[named](a); !ok {
		return nil, a.SettingError(urlKey, "the service needs a PostgreSQL pool, which comes with the starter "+boot.DataSourceStarter+
			": add it to the service's Starters")
	}
	return nil, a.SettingError(urlKey, "the service needs a PostgreSQL database, and none is set: set "+urlKey+
		" to postgres://host:port/database, or jdbc:postgresql://host:port/database")
}

// Flyway returns the Options.BindMigrate of Spring Boot's Flyway: it
// binds app.flyway.* (spring.flyway.*: flyway.Bind) with the starter's
// settings, and migrates the database with the Flyway migrations that
// fsys holds (classpath:db/migration by default: the folder db/migration
// of fsys, the service's embedded files) before Service.Start, on a
// connection of its own (Pool.MigrationConfig: without the statement
// timeout) under Flyway's lock, logging what it did and warning of
// versions newer than it knows, ignored files and missing locations
// (logger <service>.datasource). app.flyway.enabled=false skips it.
func Flyway(fsys fs.FS) func(*config.Binder) MigrateFunc {
	return func(b *config.Binder) MigrateFunc {
		s := flyway.Bind(b)
		if !s.Enabled {
			return nil
		}
		return func(ctx context.Context, a *boot.App, pool *datasource.Pool) error {
			return pool.MigrateFlyway(ctx, fsys, s, a.Logger(logger), nil)
		}
	}
}

// named says, to RequirePool, that the service names the starter.
type named struct{}

// start opens the pool, migrates the schema when the service asked to,
// and gives the pool to the service with its health, meters and outage
// rule.
func start(ctx context.Context, a *boot.App, s settings, o Options) error {
	opts := s.opts
	opts.Configure, opts.Logger = o.Configure, a.Logger(logger)
	if opts.ApplicationName == "" {
		opts.ApplicationName = a.Name() // names the sessions in pg_stat_activity
	}
	pool, err := datasource.Open(ctx, opts)
	if err != nil {
		return a.EngineError("PostgreSQL database", s.key, opts.URL, err)
	}
	a.OnClose(func() error { pool.Close(); return nil })
	if o.Migrate != nil {
		if err := o.Migrate(ctx, a, pool); err != nil {
			failure := a.EngineError("PostgreSQL database", s.key, opts.URL, err)
			if ve := (*flyway.ValidationError)(nil); errors.As(err, &ve) {
				// The database is there and reachable: what it holds
				// disagrees with the migrations, which the address
				// cannot fix.
				failure.(*boot.EngineError).Action = "Revert the changed migrations to what the database applied, or record the new ones with Flyway's repair (or set app.flyway.validate-on-migrate=false, and own the difference); then start again"
			}
			return failure
		}
	}
	boot.Provide(a, pool)
	a.TranslateErrors(datasource.Translate)
	a.Health(actuator.Indicator{Name: "db", Check: func(ctx context.Context) (map[string]any, error) {
		// Spring's shape: the product, and how the connection was
		// checked (pgx pings, as JDBC's isValid() does).
		return map[string]any{"database": "PostgreSQL", "validationQuery": "isValid()"}, pool.Ping(ctx)
	}})
	// The pool under the names Spring Boot gives its DataSource (the bean
	// dataSource) and HikariCP's pool, so that Spring's dashboards find
	// them.
	a.ConnectionPool("dataSource", pool.Name(), func() metrics.PoolStats {
		p := pool.Stats()
		return metrics.PoolStats{Active: int(p.Active), Idle: int(p.Idle), Max: int(p.Max), Min: int(p.MinIdle), Pending: int(p.Pending),
			Acquires: uint64(p.Acquires), AcquireTime: p.AcquireTime, Timeouts: uint64(p.Timeouts),
			Creations: uint64(p.Creations), CreationTime: p.CreationTime, Usages: uint64(p.Usages), UsageTime: p.UsageTime}
	})
	return nil
}
