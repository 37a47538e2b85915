package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/messagestore/postgres"

	"github.com/springport/greeter/framework/testing/polltest"
)

// open opens a DB on the database of url, as one instance of the service
// would, and closes it when the test ends.
func open(t *testing.T, url string, opts ...func(*postgres.Options)) *postgres.DB {
	t.Helper()
	o := postgres.Options{DataSource: datasource.Options{URL: url}}
	for _, f := range opts {
		f(&o)
	}
	db, err := postgres.Open(t.Context(), o)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(db.Close)
	return db
}

// fresh opens a DB on a new database of the test's own.
func fresh(t *testing.T, opts ...func(*postgres.Options)) (*postgres.DB, string) {
	t.Helper()
	url := enginetest.Postgres(t)
	return open(t, url, opts...), url
}

// query runs sql on a connection of its own to the database of url, as an
// operator's psql would, and scans its one row into dest.
func query(t *testing.T, url, sql string, dest ...any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if len(dest) == 0 {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return
	}
	if err := conn.QueryRow(ctx, sql).Scan(dest...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, within time.Duration, what string, cond func() error) {
	t.Helper()
	polltest.Until(t, within, what, cond)
}
