package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/datasource/flyway"
)

//go:embed db/migration/*.sql
var migrationFiles embed.FS

// Migrations are the store's migrations in Flyway's format, in the folder
// db/migration: Spring Boot's classpath:db/migration, Flyway's default
// location (app.flyway.locations).
var Migrations fs.FS = migrationFiles

// gooseTable is where greeter's goose migrations, before Flyway's format,
// recorded the applied versions (1 to 5, the Flyway migrations V1 to V5
// now). It is left in place: Flyway does not read it, and a binary of
// before the move, started during a rolling upgrade, still finds the
// schema at its version.
const gooseTable = "greeter_schema_version"

// Migrate brings the schema of the database that pool reaches to the
// newest embedded migration with Spring Boot's Flyway defaults; see
// MigrateWith.
func Migrate(ctx context.Context, pool *datasource.Pool, logger *slog.Logger) error {
	return MigrateWith(ctx, pool, logger, flyway.Defaults())
}

// MigrateWith brings the schema of the database that pool reaches to the
// newest of Migrations with Flyway's settings s (app.flyway.*, bound by
// flyway.Bind), on a connection of its own that it closes
// (pool.MigrationConfig: without the statement timeout, so that a
// migration may take longer than a request), under Flyway's advisory
// lock, so that instances that start together migrate once. It logs the
// migrations applied, and warns of versions applied that are newer than
// it knows (a newer build migrated the database, which Flyway accepts),
// of ignored files and of missing locations.
//
// A database that goose migrated (greeter before Flyway's format: the
// table greeter_schema_version, and no schema history table) is given
// Flyway's history with a baseline at goose's newest version, as
// app.flyway.baseline-on-migrate with that baseline-version would: the
// migrations up to it are not run again, the later ones are applied.
// Instances upgrading together are safe: the history is created under
// Flyway's lock, and the next one finds it there.
func MigrateWith(ctx context.Context, pool *datasource.Pool, logger *slog.Logger, s flyway.Settings) error {
	if err := pool.MigrateFlyway(ctx, Migrations, s, logger, baselineAtGoose); err != nil {
		return fmt.Errorf("migrating the schema of %s: %w", pool, err)
	}
	return nil
}

// baselineAtGoose has Flyway baseline at the version goose reached, when
// the database was migrated by greeter's former goose migrations and has
// no Flyway history yet: V1 to that version are not run again.
func baselineAtGoose(ctx context.Context, conn *pgx.Conn, s *flyway.Settings) error {
	version, fromGoose, err := gooseVersion(ctx, conn, s.Table)
	if err != nil {
		return fmt.Errorf("looking for goose's %s: %w", gooseTable, datasource.Classify(err))
	}
	if fromGoose {
		s.BaselineOnMigrate = true
		s.BaselineVersion = strconv.FormatInt(version, 10)
	}
	return nil
}

// gooseVersion returns goose's newest applied version, and true, when the
// connection's schema has goose's table and no Flyway history table.
func gooseVersion(ctx context.Context, conn *pgx.Conn, historyTable string) (int64, bool, error) {
	var goose, history bool
	if err := conn.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL, to_regclass(quote_ident($2)) IS NOT NULL", gooseTable, historyTable).Scan(&goose, &history); err != nil {
		return 0, false, err
	}
	if !goose || history {
		return 0, false, nil
	}
	var version int64
	err := conn.QueryRow(ctx, "SELECT coalesce(max(version_id), 0) FROM "+gooseTable+" WHERE is_applied").Scan(&version)
	return version, err == nil, err
}
