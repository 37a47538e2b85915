package datasource

import (
	"context"
	"io/fs"
	"log/slog"

	"github.com/jackc/pgx/v5"

	"github.com/springport/greeter/framework/datasource/flyway"
)

// MigrateFlyway runs the Flyway migrations of fsys (flyway.Migrate) with
// s, unless s.Enabled is false, on a connection of its own opened from
// MigrationConfig and closed after, so that a migration's SET cannot reach
// the pool's connections. prepare, when set, runs first on that
// connection and may change s: greeter's baseline at the version its
// former goose migrations reached. What was applied, and Flyway's
// warnings, go to logger when it is set. An error of the database is
// classified (Classify: an outage is one); prepare's is returned as it is.
func (p *Pool) MigrateFlyway(ctx context.Context, fsys fs.FS, s flyway.Settings, logger *slog.Logger,
	prepare func(context.Context, *pgx.Conn, *flyway.Settings) error) error {
	if !s.Enabled {
		return nil
	}
	conn, err := pgx.ConnectConfig(ctx, p.MigrationConfig())
	if err != nil {
		return Classify(err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if prepare != nil {
		if err := prepare(ctx, conn, &s); err != nil {
			return err
		}
	}
	res, err := flyway.Migrate(ctx, conn, fsys, s)
	if err != nil {
		return Classify(err)
	}
	if logger != nil {
		res.Log(logger)
	}
	return nil
}
