package postgres

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/springport/greeter/framework/datasource"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

const (
	// versionTable is where goose records the applied migrations: a name
	// of the service's own, so that the database can hold other schemas
	// migrated by goose.
	versionTable = "greeter_schema_version"
	// migrationLock is the key of the advisory lock held while migrating:
	// the service's own too, for the same reason (goose's default is
	// shared by every goose user). It is the first eight bytes of the
	// SHA-256 of "greeter_schema_version", big-endian.
	migrationLock int64 = -0x52273d70aad23969
)

// Migrate brings the schema of the database that pool reaches to the
// newest embedded migration, on a connection of its own that it closes
// (pool.MigrationConfig: without the statement timeout, so that a
// migration may take longer than a request, and so that the session lock
// cannot outlive it in a pooled connection). It refuses a schema newer
// than that migration. The datasource starter runs it before the service
// starts (cmd/greeter); Open runs it on its own pool.
func Migrate(ctx context.Context, pool *datasource.Pool, logger *slog.Logger) error {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if err := migrate(ctx, pool.MigrationConfig(), logger); err != nil {
		return fmt.Errorf("migrating the schema of %s: %w", pool, err)
	}
	return nil
}

// migrate is Migrate on the connection that cfg makes.
func migrate(ctx context.Context, cfg *pgx.ConnConfig, logger *slog.Logger) error {
	sqlDB := stdlib.OpenDB(*cfg)
	defer sqlDB.Close()
	provider, err := newProvider(sqlDB)
	if err != nil {
		return err
	}
	sources := provider.ListSources()
	newest := sources[len(sources)-1].Version
	// Checked before migrating, so that a newer schema is not touched, and
	// read without the lock: taking it twice would make instances that
	// start together wait for each other twice.
	current, err := schemaVersion(ctx, sqlDB)
	if err != nil {
		return fmt.Errorf("reading the schema version from %s: %w", versionTable, datasource.Classify(err))
	}
	if current > newest {
		return fmt.Errorf("the database schema is at version %d, newer than the newest this binary knows (%d): run a newer build of the service, or migrate the database down to version %d", current, newest, newest)
	}
	results, err := provider.Up(ctx)
	if err != nil {
		return datasource.Classify(err)
	}
	if len(results) == 0 {
		// Another instance may have migrated while this one waited for the
		// lock: the version read before is stale then.
		logger.Info("PostgreSQL schema is up to date", "version", newest)
		return nil
	}
	for _, r := range results {
		logger.Info("PostgreSQL schema migrated", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
	}
	return nil
}

// newProvider returns the goose provider of the embedded migrations on
// db, with the service's version table and lock.
func newProvider(db *sql.DB) (*goose.Provider, error) {
	fsys, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	// An instance that finds the lock taken tries again every second, for
	// ten minutes at most, or as long as ctx allows.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(migrationLock), lock.WithLockTimeout(1, 600))
	if err != nil {
		return nil, err
	}
	return goose.NewProvider(goose.DialectPostgres, db, fsys,
		goose.WithTableName(versionTable),
		goose.WithSessionLocker(locker),
		goose.WithDisableGlobalRegistry(true),
		goose.WithLogger(goose.NopLogger()),
	)
}

// schemaVersion returns the newest migration recorded in the version
// table, or 0 when there is no version table yet.
func schemaVersion(ctx context.Context, db *sql.DB) (int64, error) {
	var exists bool
	if err := db.QueryRowContext(ctx, "SELECT to_regclass($1) IS NOT NULL", versionTable).Scan(&exists); err != nil {
		return 0, err
	}
	if !exists {
		return 0, nil
	}
	var version int64
	err := db.QueryRowContext(ctx, "SELECT coalesce(max(version_id), 0) FROM "+versionTable).Scan(&version)
	return version, err
}
