package postgres

import (
	"context"
	"os"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
)

// MigrateTo migrates the schema of the database of url up or down to
// version with goose and greeter's goose migrations, as greeter did before
// Flyway's format (testdata/goose: the migrations as they were, with
// their Down sections; db/migration holds their Up sections), so that
// tests can make a database as an older binary left it, and check that
// Open upgrades it from goose's table.
func MigrateTo(ctx context.Context, url string, version int64) error {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return err
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	provider, err := goose.NewProvider(goose.DialectPostgres, db, os.DirFS("testdata/goose"),
		goose.WithTableName(gooseTable), goose.WithDisableGlobalRegistry(true), goose.WithLogger(goose.NopLogger()))
	if err != nil {
		return err
	}
	current, err := provider.GetDBVersion(ctx)
	if err != nil {
		return err
	}
	if version < current {
		_, err = provider.DownTo(ctx, version)
	} else {
		_, err = provider.UpTo(ctx, version)
	}
	return err
}

// AppendBatches returns how many batches of Appends s has sent.
func AppendBatches(s *Messages) int64 { return s.appends.batches.Load() }

// AppendQueue returns how many Appends of s are in the batch in flight
// and how many wait for the next one.
func AppendQueue(s *Messages) (inFlight, queued int) {
	s.appends.mu.Lock()
	defer s.appends.mu.Unlock()
	return s.appends.inFlight, len(s.appends.queue)
}

// SetBatchBounds changes the bounds on the batches of s.
func SetBatchBounds(s *Messages, messages, bytes int) {
	s.appends.mu.Lock()
	defer s.appends.mu.Unlock()
	s.appends.maxMessages, s.appends.maxBytes = messages, bytes
}

// Pool is pgx's connection pool of db.
func Pool(db *DB) *pgxpool.Pool { return db.pool.Pgx() }
