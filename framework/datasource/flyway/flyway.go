// Package flyway migrates a PostgreSQL database with Flyway's migrations,
// as Spring Boot's Flyway does at start-up, so that a Spring team's
// database goes on being migrated by the Go service as it is, and one
// migrated here goes on being accepted by Flyway.
//
// Migrate reads Flyway-format SQL files from the service's embedded files
// (a folder such as db/migration, Spring Boot's classpath:db/migration):
// versioned migrations V<version>__<description>.sql, applied once each in
// the order of their versions (1 < 1.1 < 2, leading zeros ignored,
// underscores as dots), then repeatable ones R__<description>.sql, in the
// order of their descriptions, applied again whenever their checksum
// changes. It records each in the schema history table
// (flyway_schema_history) with Flyway's columns, types and checksums, and
// takes the advisory lock Flyway takes, so that several instances, and
// Flyway itself, migrate one at a time and each migration once. Each
// migration runs in a transaction of its own, with its history row, as
// Flyway runs it on PostgreSQL: a failure rolls it back whole.
//
// Before migrating it validates, as Flyway's validateOnMigrate does: an
// applied migration whose file changed (its checksum differs) stops it,
// naming the file and both checksums; so does a file that is gone, a
// failed migration, and a pending version older than the newest applied
// (unless Settings.OutOfOrder).
//
// What Flyway does and this package does not, each refused with a reason
// rather than done differently: placeholders (${…}, replaced by Flyway by
// default), SQL callbacks (beforeMigrate.sql…), baseline migrations
// (B…), per-script .conf files, Java migrations (their rows are found in
// the history and are not resolved locally, as a file removed), creating
// the schema (the connection's current schema must exist; Flyway would
// create it and record << Flyway Schema Creation >>), and migrations that
// cannot run inside a transaction (CREATE INDEX CONCURRENTLY, which
// Flyway detects and runs outside one): PostgreSQL refuses them inside the
// migration's transaction, which rolls back. The SQL of a migration is
// sent as one simple-protocol query, so it may hold any number of
// statements, but not COPY … FROM STDIN or psql's meta-commands.
//
// The Flyway facts relied on are from flyway-core and
// flyway-database-postgresql 11.7.2 and 12.4.0 (what Spring Boot 3.5.7 and
// 4.1.2 manage), the same in both: ChecksumCalculator and BomFilter (the
// checksum), MigrationVersion and ResourceNameParser (names and
// versions), SqlMigrationResolver and ResolvedMigrationComparator (the
// files and their order), MigrationInfoServiceImpl, MigrationInfoImpl and
// BaseAppliedMigration (states and validation), DbMigrate, DbBaseline and
// Flyway.migrate (the order of the steps), SchemaHistory and
// JdbcTableSchemaHistory (the rows), PostgreSQLDatabase (the table's DDL),
// PostgreSQLSchema (an empty schema) and PostgreSQLAdvisoryLockTemplate
// (the lock). conformance/flyway_test.go checks them against Flyway run by
// Spring Boot.
package flyway

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Settings are Spring Boot's spring.flyway.* that this package reads
// (app.flyway.* here; Bind binds them), with Spring Boot's defaults
// (Defaults).
type Settings struct {
	// Enabled: false makes Migrate do nothing.
	Enabled bool
	// Locations are where the migrations are: classpath:<folder> (or
	// <folder>) is a folder of the embedded files Migrate is given,
	// filesystem:<folder> one on disk; {vendor} is postgresql.
	Locations []string
	// Table is the schema history table, in the connection's current
	// schema.
	Table string
	// BaselineOnMigrate: a schema that holds objects but no history table
	// is given one with a baseline row at BaselineVersion, rather than
	// refused; migrations up to that version are then not applied.
	BaselineOnMigrate bool
	// BaselineVersion and BaselineDescription are the baseline row's.
	BaselineVersion     string
	BaselineDescription string
	// ValidateOnMigrate checks the applied migrations against the files
	// before migrating.
	ValidateOnMigrate bool
	// OutOfOrder applies a pending version older than the newest applied,
	// rather than refusing it.
	OutOfOrder bool
}

// Defaults returns Spring Boot's defaults (FlywayProperties).
func Defaults() Settings {
	return Settings{
		Enabled:             true,
		Locations:           []string{"classpath:db/migration"},
		Table:               "flyway_schema_history",
		BaselineVersion:     "1",
		BaselineDescription: "<< Flyway Baseline >>",
		ValidateOnMigrate:   true,
	}
}

// A DB is what Migrate runs its transactions on: a *pgx.Conn, a
// *pgxpool.Pool or a *pgxpool.Conn. Give it a connection of its own,
// closed after: a migration that changes its session (SET search_path,
// SET ROLE) would otherwise change a pooled connection the service goes
// on using.
type DB interface {
	Begin(ctx context.Context) (pgx.Tx, error)
}

// Result is what Migrate did.
type Result struct {
	// Table is the schema history table, as Flyway names it:
	// "public"."flyway_schema_history".
	Table string
	// Created: the table was created; Baselined: with a baseline row.
	Created, Baselined bool
	// InitialVersion and Version are the schema's version before and
	// after ("" for none): the newest version applied, the baseline's
	// included.
	InitialVersion, Version string
	// Applied are the migrations applied, in order.
	Applied []Applied
	// Future are the versions applied that are newer than every
	// migration known here, which Flyway accepts with a warning (a newer
	// build migrated the database).
	Future []string
	// Ignored are the .sql files of the locations whose names are not
	// migrations' (V1_init.sql, one underscore), which Flyway ignores
	// too, and MissingLocations the locations that do not exist, which
	// Flyway warns about.
	Ignored, MissingLocations []string
}

// Applied is a migration Migrate applied.
type Applied struct {
	Version     string // "" for a repeatable migration
	Description string
	Script      string // as the history records it, relative to its location
	File        string // its location and script
	Checksum    int32
	OutOfOrder  bool // older than a version applied before it
	Took        time.Duration
}

// ValidationError is the refusal of a history that does not match the
// migrations (Flyway's FlywayValidateException).
type ValidationError struct {
	Table    string
	Problems []string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("validating %s against the migrations failed (Flyway's validate-on-migrate; nothing was migrated):\n%s", e.Table, joinLines(e.Problems))
}

// Migrate brings the database to the newest migration of the settings'
// locations, as Flyway's migrate does, and returns what it did. fsys
// holds the classpath: locations. On an error the migrations applied
// before it stay applied, and the Result lists them; the one that failed
// was rolled back. ctx bounds the whole, the wait for another instance's
// lock included.
func Migrate(ctx context.Context, db DB, fsys fs.FS, s Settings) (*Result, error) {
	if !s.Enabled {
		return &Result{}, nil
	}
	if s.Table == "" {
		return nil, errors.New("flyway: no schema history table named")
	}
	var baseline version
	if s.BaselineOnMigrate {
		var err error
		if baseline, err = parseVersion(s.BaselineVersion); err != nil {
			return nil, fmt.Errorf("flyway: baseline version: %w", err)
		}
	}
	locs, err := locations(fsys, s.Locations)
	if err != nil {
		return nil, fmt.Errorf("flyway: %w", err)
	}
	found, err := resolve(locs)
	if err != nil {
		return nil, fmt.Errorf("flyway: %w", err)
	}
	res := &Result{Ignored: found.ignored, MissingLocations: found.missing}
	m := &migrator{db: db, s: s, files: found.migrations, baseline: baseline, res: res}
	for first := true; ; first = false {
		more, err := m.step(ctx, first)
		if err != nil {
			return res, fmt.Errorf("flyway: %w", err)
		}
		if !more {
			return res, nil
		}
	}
}

// migrator runs Migrate's steps, each a transaction under the lock.
type migrator struct {
	db       DB
	s        Settings
	files    []migration
	baseline version
	res      *Result
	t        table
	user     string
}

// step runs one transaction under Flyway's lock: on the first, it finds
// the schema and validates; then it creates the table (and its baseline)
// when there is none, or applies the first pending migration. It reports
// whether there may be more to do.
func (m *migrator) step(ctx context.Context, first bool) (more bool, err error) {
	tx, err := m.db.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback(context.WithoutCancel(ctx))
		}
	}()
	if first {
		var schema *string
		if err := tx.QueryRow(ctx, "SELECT current_schema(), current_user").Scan(&schema, &m.user); err != nil {
			return false, err
		}
		if schema == nil {
			return false, errors.New("the connection has no current schema: no schema of its search_path exists. Create it (Flyway would, and record << Flyway Schema Creation >>; this package does not), or set search_path")
		}
		m.t = table{schema: *schema, name: m.s.Table}
		m.res.Table = m.t.String()
	}
	// Flyway's lock, for the whole transaction: the next instance, or
	// Flyway, waits for its commit.
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", LockID(m.t.schema, m.t.name)); err != nil {
		return false, fmt.Errorf("taking the migrations' advisory lock: %w", err)
	}
	exists, err := m.t.exists(ctx, tx)
	if err != nil {
		return false, err
	}
	if !exists {
		return true, m.create(ctx, tx)
	}
	rows, err := m.t.rows(ctx, tx)
	if err != nil {
		return false, fmt.Errorf("reading %s: %w", m.t, err)
	}
	state, err := compute(m.files, rows, m.s.OutOfOrder)
	if err != nil {
		return false, err
	}
	if first {
		if v := state.current(); v != nil {
			m.res.InitialVersion = v.text
		}
		m.res.Future = state.future()
		if m.s.ValidateOnMigrate {
			if problems := state.validate(); len(problems) > 0 {
				return false, &ValidationError{Table: m.t.String(), Problems: problems}
			}
		}
	}
	if msg := state.failed(m.t); msg != "" {
		return false, errors.New(msg)
	}
	next := state.next()
	if next == nil {
		if v := state.current(); v != nil {
			m.res.Version = v.text
		}
		return false, tx.Commit(ctx)
	}
	return true, m.apply(ctx, tx, state, rows, *next)
}

// create makes the history table, with a baseline row when the schema
// holds objects and BaselineOnMigrate allows (Flyway.migrate).
func (m *migrator) create(ctx context.Context, tx pgx.Tx) error {
	empty, err := schemaEmpty(ctx, tx, m.t.schema)
	if err != nil {
		return err
	}
	if !empty && !m.s.BaselineOnMigrate {
		return fmt.Errorf("found non-empty schema %s but no schema history table %s. Set app.flyway.baseline-on-migrate=true to initialize it with a baseline at app.flyway.baseline-version (%s), as Flyway's baseline would", quoteIdent(m.t.schema), m.t, m.s.BaselineVersion)
	}
	if err := m.t.create(ctx, tx); err != nil {
		return fmt.Errorf("creating %s: %w", m.t, err)
	}
	m.res.Created = true
	if !empty {
		b := row{rank: 1, version: &m.baseline, description: m.s.BaselineDescription, typ: typeBaseline,
			script: m.s.BaselineDescription, installedBy: m.user, success: true}
		if err := m.t.insert(ctx, tx, b, 0); err != nil {
			return fmt.Errorf("recording the baseline in %s: %w", m.t, err)
		}
		m.res.Baselined = true
		m.res.InitialVersion = m.baseline.text
	}
	return tx.Commit(ctx)
}

// apply runs a pending migration and records it, in one transaction.
func (m *migrator) apply(ctx context.Context, tx pgx.Tx, state *infos, rows []row, next info) error {
	f := next.file
	began := time.Now()
	if _, err := tx.Exec(ctx, f.sql); err != nil {
		return fmt.Errorf("migration %s failed, and was rolled back: %w", f.file, withLine(err, f.sql))
	}
	if tx.Conn().PgConn().TxStatus() != 'T' {
		return fmt.Errorf("migration %s ended its transaction (COMMIT or ROLLBACK in the script): each migration runs in a transaction of its own, which it must not end", f.file)
	}
	took := time.Since(began)
	rank := 1
	if len(rows) > 0 {
		rank = rows[len(rows)-1].rank + 1
	}
	checksum := f.checksum
	r := row{rank: rank, version: f.version, description: f.description, typ: typeSQL, script: f.script,
		checksum: &checksum, installedBy: m.user, success: true}
	if err := m.t.insert(ctx, tx, r, took); err != nil {
		return fmt.Errorf("recording migration %s in %s: %w", f.file, m.t, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("committing migration %s: %w", f.file, err)
	}
	a := Applied{Description: f.description, Script: f.script, File: f.file, Checksum: f.checksum, Took: took}
	if f.version != nil {
		a.Version = f.version.text
		a.OutOfOrder = state.lastApplied != nil && f.version.compare(*state.lastApplied) < 0
	}
	m.res.Applied = append(m.res.Applied, a)
	return nil
}

// withLine adds to a PostgreSQL error the line of the script it points
// at (its position counts characters from 1).
func withLine(err error, sql string) error {
	var pg *pgconn.PgError
	if !errors.As(err, &pg) || pg.Position <= 0 {
		return err
	}
	line, n := 1, int32(0)
	for _, r := range sql {
		n++
		if n >= pg.Position {
			break
		}
		if r == '\n' {
			line++
		}
	}
	return fmt.Errorf("line %d: %w", line, err)
}
