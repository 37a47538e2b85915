package main

import (
	"context"
	"strings"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/management/metrics"
	"github.com/springport/greeter/messagestore/inmem"
	"github.com/springport/greeter/messagestore/postgres"
)

// postgresLogger is greeter's own logger, greeter.postgres: the PostgreSQL
// message store and its migrations (logging.level.sql sets it too).
const postgresLogger = "postgres"

// openMessages opens the message store: in memory, the embedded default,
// unless app.datasource.url (or app.r2dbc.url) names a PostgreSQL database, which health
// then reports. A database that cannot be reached, or whose schema this
// binary does not know, stops start-up with the setting that named it.
func openMessages(ctx context.Context, app *boot.App, s settings) (message.Store, error) {
	opts := s.postgres
	if opts.URL == "" {
		if len(s.otherDataSources) > 0 {
			// A Spring user's datasource (Druid's, dynamic-datasource's, a
			// MySQL URL) is not one greeter reads: its keys are warned
			// about one by one, and this says what that means, once.
			app.Logger(postgresLogger).Warn("no datasource is configured (app.datasource.url, or spring.datasource.url, is unset): "+
				"the messages live in memory and are lost when the service stops; the datasource settings found name databases greeter does not read "+
				"(set app.datasource.url to a PostgreSQL URL to keep the messages there)",
				"settings", strings.Join(s.otherDataSources, "; "))
		}
		return &inmem.Messages{Limits: s.messages.limits}, nil
	}
	opts.Logger, opts.Limits = app.Logger(postgresLogger), s.messages.limits
	db, err := postgres.Open(ctx, opts)
	if err != nil {
		return nil, app.EngineError("PostgreSQL database", s.postgresKey, opts.URL, err)
	}
	app.OnClose(func() error { db.Close(); return nil })
	app.Health(actuator.Indicator{Name: "db", Check: func(ctx context.Context) (map[string]any, error) {
		// Spring's shape: the product, and how the connection was
		// checked (pgx pings, as JDBC's isValid() does).
		return map[string]any{"database": "PostgreSQL", "validationQuery": "isValid()"}, db.Ping(ctx)
	}})
	// The pool under the names Spring Boot gives its DataSource
	// (dataSource) and HikariCP's first pool, so that Spring's dashboards
	// find them.
	app.ConnectionPool("dataSource", "HikariPool-1", func() metrics.PoolStats {
		p := db.PoolStats()
		return metrics.PoolStats{Active: int(p.Acquired), Idle: int(p.Idle), Max: int(p.Max), Min: int(p.Min),
			Acquires: uint64(p.AcquireCount), AcquireTime: p.AcquireDuration, Timeouts: uint64(p.CanceledAcquireCount)}
	})
	return db.Messages(), nil
}
