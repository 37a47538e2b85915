package main

import (
	"context"
	"strings"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/datasource/flyway"
	datasourcestarter "github.com/springport/greeter/framework/starter/datasource"
	"github.com/springport/greeter/messagestore/inmem"
	"github.com/springport/greeter/messagestore/postgres"
)

// postgresLogger is greeter's own logger, greeter.postgres: the PostgreSQL
// message store and its migrations (logging.level.sql sets it too).
const postgresLogger = "postgres"

// dataSource is the datasource starter with what greeter's PostgreSQL
// store needs of the pool: READ COMMITTED on every connection, and the
// schema migrated before the service starts with Flyway's migrations,
// embedded in messagestore/postgres as its classpath:db/migration, and
// Spring Boot's settings of Flyway (app.flyway.*, spring.flyway.*). A
// database that goose migrated (greeter before Flyway's format) is
// continued from goose's version. A database that cannot be reached, or
// whose history does not match the migrations, stops start-up with the
// setting that named it.
var dataSource = datasourcestarter.With(datasourcestarter.Options{
	Configure: postgres.Configure,
	BindMigrate: func(b *config.Binder) datasourcestarter.MigrateFunc {
		s := flyway.Bind(b)
		return func(ctx context.Context, app *boot.App, pool *datasource.Pool) error {
			return postgres.MigrateWith(ctx, pool, app.Logger(postgresLogger), s)
		}
	},
})

// openMessages opens the message store: in PostgreSQL when the
// datasource starter opened a pool (app.datasource.url, or app.r2dbc.url,
// names a database), and in memory, the embedded default, otherwise.
func openMessages(app *boot.App, s settings) message.Store {
	pool, ok := datasourcestarter.Pool(app)
	if !ok {
		if len(s.otherDataSources) > 0 {
			// A Spring user's datasource (Druid's, dynamic-datasource's, a
			// MySQL URL) is not one greeter reads: its keys are warned
			// about one by one, and this says what that means, once.
			app.Logger(postgresLogger).Warn("no datasource is configured (app.datasource.url, or spring.datasource.url, is unset): "+
				"the messages live in memory and are lost when the service stops; the datasource settings found name databases greeter does not read "+
				"(set app.datasource.url to a PostgreSQL URL to keep the messages there)",
				"settings", strings.Join(s.otherDataSources, "; "))
		}
		return &inmem.Messages{Limits: s.messages.limits}
	}
	db := postgres.New(pool, postgres.Options{Limits: s.messages.limits})
	// Closed before the pool, which the starter closes: added after it.
	app.OnClose(func() error { db.Close(); return nil })
	return db.Messages()
}
