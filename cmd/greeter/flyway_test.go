package main

import (
	"context"
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
)

// gooseMigrate migrates the database of url as greeter did before
// Flyway's format: goose, with greeter's goose migrations as they were
// (kept as testdata of messagestore/postgres), recorded in
// greeter_schema_version.
func gooseMigrate(t *testing.T, url string) {
	t.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	provider, err := goose.NewProvider(goose.DialectPostgres, db, os.DirFS("../../messagestore/postgres/testdata/goose"),
		goose.WithTableName("greeter_schema_version"), goose.WithDisableGlobalRegistry(true), goose.WithLogger(goose.NopLogger()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Up(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// history is the rows of flyway_schema_history, one a string.
func history(t *testing.T, url string) []string {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(t.Context(), "SELECT installed_rank || ' ' || coalesce(version, '') || ' ' || type || ' ' || script || ' ' || success FROM flyway_schema_history ORDER BY installed_rank")
	if err != nil {
		t.Fatal(err)
	}
	list, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// TestUpgradeFromGoose: a database that the goose greeter migrated and
// wrote messages to is continued by greeter's Flyway migrations: the
// history gets a baseline at goose's version 5, no migration runs again,
// the messages are all there, and the service works on them.
func TestUpgradeFromGoose(t *testing.T) {
	t.Parallel()
	e := newEngines(t)
	gooseMigrate(t, e.databaseURL)
	conn, err := pgx.Connect(t.Context(), e.databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	// Written as the goose greeter wrote them: its append function.
	if _, err := conn.Exec(t.Context(), `SELECT greeter_append_messages('{"first", "second", "third"}'::text[]::bytea[])`); err != nil {
		t.Fatal(err)
	}
	s := start(t, e.args(), nil)
	s.WaitForLog(t, regexp.MustCompile(`PostgreSQL schema history created with a baseline.*version=5`))
	if got, want := history(t, e.databaseURL), []string{"1 5 BASELINE << Flyway Baseline >> true"}; !slices.Equal(got, want) {
		t.Errorf("flyway_schema_history: %q, want %q", got, want)
	}
	var gooseVersion int64
	if err := conn.QueryRow(t.Context(), "SELECT max(version_id) FROM greeter_schema_version").Scan(&gooseVersion); err != nil || gooseVersion != 5 {
		t.Errorf("greeter_schema_version at %d (%v), want 5, as goose left it", gooseVersion, err)
	}
	if status, err := post(s.base, "fourth"); err != nil || status != 201 {
		t.Fatalf("POST: %d %v", status, err)
	}
	if got, want := texts(t, s.base), []string{"first", "second", "third", "fourth"}; !slices.Equal(got, want) {
		t.Errorf("GET /api/messages: %q, want %q", got, want)
	}
	// Started again, it finds the history and changes nothing.
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	again := start(t, e.args(), nil)
	again.WaitForLog(t, regexp.MustCompile(`PostgreSQL schema is up to date.*version=5`))
	if got := history(t, e.databaseURL); len(got) != 1 {
		t.Errorf("after a restart, flyway_schema_history: %q", got)
	}
	if got := texts(t, again.base); len(got) != 4 {
		t.Errorf("after a restart: %q", got)
	}
}

// TestFreshDatabaseFlywayHistory: on an empty database greeter creates
// Flyway's history with V1 to V5, as Flyway would, and no goose table.
func TestFreshDatabaseFlywayHistory(t *testing.T) {
	t.Parallel()
	e := newEngines(t)
	s := start(t, e.args(), nil)
	want := []string{
		"1 1 SQL V1__messages.sql true", "2 2 SQL V2__pages.sql true", "3 3 SQL V3__append_batches.sql true",
		"4 4 SQL V4__limits.sql true", "5 5 SQL V5__removals.sql true",
	}
	if got := history(t, e.databaseURL); !slices.Equal(got, want) {
		t.Errorf("flyway_schema_history:\ngot  %q\nwant %q", got, want)
	}
	conn, err := pgx.Connect(t.Context(), e.databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var goose bool
	if err := conn.QueryRow(t.Context(), "SELECT to_regclass('greeter_schema_version') IS NOT NULL").Scan(&goose); err != nil || goose {
		t.Errorf("greeter_schema_version exists: %v %v", goose, err)
	}
	if status, err := post(s.base, "hello"); err != nil || status != 201 {
		t.Fatalf("POST: %d %v", status, err)
	}
	if got := texts(t, s.base); !slices.Equal(got, []string{"hello"}) {
		t.Errorf("GET /api/messages: %q", got)
	}
}
