package main

import (
	"context"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/logging"
	"github.com/springport/greeter/framework/management/actuator"
	"github.com/springport/greeter/framework/memstore"
	"github.com/springport/greeter/framework/redisstore"
	"github.com/springport/greeter/inmem"
	"github.com/springport/greeter/postgres"
)

// stores are where the service keeps its state, as the settings chose.
type stores struct {
	messages   message.Store
	sessions   component.SessionStore
	inMemory   *memstore.Store      // sessions, when they are kept here: their metrics
	indicators []actuator.Indicator // a health check per outside engine
	closers    []func() error       // in the order opened
}

// openStores opens the message and session stores: in memory unless
// app.datasource.url names a PostgreSQL database, or
// app.session.store-type is redis. An engine that cannot be reached, or a
// database schema this binary does not know, stops start-up with the
// setting that named it. What was opened before a failure is in closers.
func openStores(ctx context.Context, env *config.Environment, s settings, loggers *logging.Registry) (st stores, err error) {
	if opts := s.stores.postgres; opts.URL != "" {
		opts.Logger, opts.Limits = loggers.Logger(postgresLogger), s.app.messages.limits
		db, err := postgres.Open(ctx, opts)
		if err != nil {
			return st, newEngineError(env, "PostgreSQL database", "app.datasource.url", opts.URL, err)
		}
		st.closers = append(st.closers, func() error { db.Close(); return nil })
		st.messages = db.Messages()
		st.indicators = append(st.indicators, actuator.Indicator{Name: "db", Check: func(ctx context.Context) (map[string]any, error) {
			// Spring's shape: the product, and how the connection was
			// checked (pgx pings, as JDBC's isValid() does).
			return map[string]any{"database": "PostgreSQL", "validationQuery": "isValid()"}, db.Ping(ctx)
		}})
	} else {
		st.messages = &inmem.Messages{Limits: s.app.messages.limits}
	}

	switch s.stores.sessionStore {
	case "redis":
		opts := s.stores.redis
		opts.IdleTimeout, opts.MaxSessions, opts.Logger = s.server.sessionTimeout, s.server.maxSessions, loggers.Logger(redisLogger)
		sessions, err := redisstore.Open(ctx, opts)
		if err != nil {
			return st, newEngineError(env, "Redis server", "app.data.redis.url", opts.URL, err)
		}
		st.closers = append(st.closers, sessions.Close)
		st.sessions = sessions
		st.indicators = append(st.indicators, actuator.Indicator{Name: "redis", Check: func(ctx context.Context) (map[string]any, error) {
			version, err := sessions.Ping(ctx)
			if err != nil {
				return nil, err
			}
			return map[string]any{"version": version}, nil
		}})
	default:
		sessions := memstore.New(memstore.Options{IdleTimeout: s.server.sessionTimeout,
			MaxSessions: s.server.maxSessions, Logger: loggers.Logger(sessionsLogger)})
		st.closers = append(st.closers, sessions.Close)
		st.sessions, st.inMemory = sessions, sessions
	}
	return st, nil
}

// engineError is an engine that a setting names and that start-up could
// not use: unreachable, refusing the credentials, or holding a schema this
// binary does not know. The report shows the setting as for a bad value:
// its value (its password masked) and where it was set.
type engineError struct {
	engine  string // "PostgreSQL database"
	setting config.SettingError
}

func (e *engineError) Error() string { return e.setting.Error() }

func newEngineError(env *config.Environment, engine, key, value string, err error) error {
	v, ok, lookupErr := env.Lookup(key)
	if !ok || lookupErr != nil {
		v = config.Value{Key: key, Raw: value, Origin: "the default"}
	}
	return &engineError{engine: engine, setting: config.SettingError{Value: v, Reason: err.Error()}}
}
