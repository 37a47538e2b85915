package flyway_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/springport/greeter/framework/datasource/flyway"
	"github.com/springport/greeter/framework/testing/enginetest"
)

// files is a service's embedded files: each migration under db/migration.
func files(migrations map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, sql := range migrations {
		fsys["db/migration/"+name] = &fstest.MapFile{Data: []byte(sql)}
	}
	return fsys
}

func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func migrate(t *testing.T, conn *pgx.Conn, fsys fstest.MapFS, s flyway.Settings) *flyway.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := flyway.Migrate(ctx, conn, fsys, s)
	if err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	return res
}

// historyRow is a row of flyway_schema_history, less installed_on and
// execution_time.
type historyRow struct {
	Rank        int
	Version     *string
	Description string
	Type        string
	Script      string
	Checksum    *int32
	InstalledBy string
	Success     bool
}

func (r historyRow) String() string {
	v, c := "NULL", "NULL"
	if r.Version != nil {
		v = *r.Version
	}
	if r.Checksum != nil {
		c = fmt.Sprint(*r.Checksum)
	}
	return fmt.Sprintf("%d|%s|%s|%s|%s|%s|%s|%v", r.Rank, v, r.Description, r.Type, r.Script, c, r.InstalledBy, r.Success)
}

func history(t *testing.T, conn *pgx.Conn) []string {
	t.Helper()
	rows, err := conn.Query(context.Background(), `SELECT installed_rank, version, description, type, script, checksum, installed_by, success FROM flyway_schema_history ORDER BY installed_rank`)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := pgx.CollectRows(rows, pgx.RowToStructByPos[historyRow])
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rs {
		out = append(out, r.String())
	}
	return out
}

func checksum(t *testing.T, sql string) string {
	c, err := flyway.Checksum([]byte(sql))
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(c)
}

func equalLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

var base = map[string]string{
	"V1__create_t.sql":      "CREATE TABLE t (id int PRIMARY KEY, name text);\r\n",
	"V1_1__add_a_row.sql":   "\uFEFFINSERT INTO t VALUES (1, 'one');\n",
	"V2__add_column.sql":    "ALTER TABLE t ADD COLUMN note text;\nINSERT INTO t VALUES (2, 'two', 'x');",
	"R__b_view.sql":         "CREATE OR REPLACE VIEW tb AS SELECT id FROM t;\n",
	"R__a_view.sql":         "CREATE OR REPLACE VIEW ta AS SELECT name FROM t;\n",
	"sub/V10__in_a_sub.sql": "INSERT INTO t VALUES (10, 'ten');\n",
}

// TestMigrateAppliesInFlywaysOrderAndRecordsFlywaysRows: versions by
// number (1 < 1.1 < 2 < 10), then repeatable migrations by description,
// each recorded as Flyway records it; a second run applies nothing.
func TestMigrateAppliesInFlywaysOrderAndRecordsFlywaysRows(t *testing.T) {
	conn := connect(t, enginetest.Postgres(t))
	fsys := files(base)
	res := migrate(t, conn, fsys, flyway.Defaults())
	var applied []string
	for _, a := range res.Applied {
		applied = append(applied, a.Version+" "+a.Script)
	}
	equalLines(t, "applied", applied, []string{"1 V1__create_t.sql", "1.1 V1_1__add_a_row.sql", "2 V2__add_column.sql", "10 sub/V10__in_a_sub.sql", " R__a_view.sql", " R__b_view.sql"})
	if !res.Created || res.Baselined || res.InitialVersion != "" || res.Version != "10" || res.Table != `"public"."flyway_schema_history"` {
		t.Errorf("result %+v", res)
	}
	equalLines(t, "history", history(t, conn), []string{
		"1|1|create t|SQL|V1__create_t.sql|" + checksum(t, base["V1__create_t.sql"]) + "|postgres|true",
		"2|1.1|add a row|SQL|V1_1__add_a_row.sql|" + checksum(t, base["V1_1__add_a_row.sql"]) + "|postgres|true",
		"3|2|add column|SQL|V2__add_column.sql|" + checksum(t, base["V2__add_column.sql"]) + "|postgres|true",
		"4|10|in a sub|SQL|sub/V10__in_a_sub.sql|" + checksum(t, base["sub/V10__in_a_sub.sql"]) + "|postgres|true",
		"5|NULL|a view|SQL|R__a_view.sql|" + checksum(t, base["R__a_view.sql"]) + "|postgres|true",
		"6|NULL|b view|SQL|R__b_view.sql|" + checksum(t, base["R__b_view.sql"]) + "|postgres|true",
	})
	// Flyway's DDL: the columns, the primary key and the index on success.
	var ddl string
	err := conn.QueryRow(context.Background(), `SELECT string_agg(column_name || ' ' || data_type || coalesce('(' || character_maximum_length || ')', '') || ' ' || is_nullable || coalesce(' ' || column_default, ''), ', ' ORDER BY ordinal_position)
		|| ' / ' || (SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes WHERE tablename = 'flyway_schema_history')
		FROM information_schema.columns WHERE table_name = 'flyway_schema_history'`).Scan(&ddl)
	if err != nil {
		t.Fatal(err)
	}
	const wantDDL = "installed_rank integer NO, version character varying(50) YES, description character varying(200) NO, type character varying(20) NO, script character varying(1000) NO, checksum integer YES, installed_by character varying(100) NO, installed_on timestamp without time zone NO now(), execution_time integer NO, success boolean NO / flyway_schema_history_pk,flyway_schema_history_s_idx"
	if ddl != wantDDL {
		t.Errorf("the table is\n%s\nwant Flyway's\n%s", ddl, wantDDL)
	}

	again := migrate(t, conn, fsys, flyway.Defaults())
	if len(again.Applied) != 0 || again.Created || again.InitialVersion != "10" || again.Version != "10" {
		t.Errorf("a second run: %+v", again)
	}
}

// TestRepeatableReappliedWhenChanged: a repeatable migration runs again,
// with a row of its own, when its checksum changes, and not when only its
// line ends do.
func TestRepeatableReappliedWhenChanged(t *testing.T) {
	conn := connect(t, enginetest.Postgres(t))
	m := map[string]string{"V1__t.sql": "CREATE TABLE t (id int);", "R__v.sql": "CREATE OR REPLACE VIEW v AS SELECT 1 AS one;\n"}
	migrate(t, conn, files(m), flyway.Defaults())
	m["R__v.sql"] = "CREATE OR REPLACE VIEW v AS SELECT 1 AS one;\r\n"
	if res := migrate(t, conn, files(m), flyway.Defaults()); len(res.Applied) != 0 {
		t.Errorf("CRLF instead of LF applied %+v again", res.Applied)
	}
	m["R__v.sql"] = "CREATE OR REPLACE VIEW v AS SELECT 1 AS one, 2 AS two;\n"
	res := migrate(t, conn, files(m), flyway.Defaults())
	if len(res.Applied) != 1 || res.Applied[0].Script != "R__v.sql" {
		t.Fatalf("applied %+v, want R__v.sql again", res.Applied)
	}
	equalLines(t, "history", history(t, conn), []string{
		"1|1|t|SQL|V1__t.sql|" + checksum(t, "CREATE TABLE t (id int);") + "|postgres|true",
		"2|NULL|v|SQL|R__v.sql|" + checksum(t, "CREATE OR REPLACE VIEW v AS SELECT 1 AS one;") + "|postgres|true",
		"3|NULL|v|SQL|R__v.sql|" + checksum(t, m["R__v.sql"]) + "|postgres|true",
	})
	var two int
	if err := conn.QueryRow(context.Background(), "SELECT two FROM v").Scan(&two); err != nil || two != 2 {
		t.Errorf("the view was not replaced: %v", err)
	}
}

// TestChangedMigrationStopsStartup: an applied migration whose file
// changed stops Migrate before anything runs, naming the file and both
// checksums.
func TestChangedMigrationStopsStartup(t *testing.T) {
	conn := connect(t, enginetest.Postgres(t))
	m := map[string]string{"V1__t.sql": "CREATE TABLE t (id int);\n", "V2__u.sql": "CREATE TABLE u (id int);\n"}
	migrate(t, conn, files(m), flyway.Defaults())
	applied := checksum(t, m["V1__t.sql"])
	m["V1__t.sql"] = "CREATE TABLE t (id bigint);\n"
	m["V3__w.sql"] = "CREATE TABLE w (id int);\n"
	_, err := flyway.Migrate(context.Background(), conn, files(m), flyway.Defaults())
	var ve *flyway.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Migrate: %v, want a *ValidationError", err)
	}
	for _, want := range []string{"Migration checksum mismatch for migration version 1 (classpath:db/migration/V1__t.sql)", "-> Applied to database : " + applied, "-> Resolved locally    : " + checksum(t, m["V1__t.sql"])} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
	if n := len(history(t, conn)); n != 2 {
		t.Errorf("%d rows: V3 was applied despite the mismatch", n)
	}
	// validate-on-migrate=false goes on, as Flyway's does.
	s := flyway.Defaults()
	s.ValidateOnMigrate = false
	if res := migrate(t, conn, files(m), s); len(res.Applied) != 1 {
		t.Errorf("without validation: applied %+v, want V3", res.Applied)
	}
}

// TestValidationRefusals: a file gone, a failed migration in the history,
// and a description changed, each as Flyway's validate reports them.
func TestValidationRefusals(t *testing.T) {
	conn := connect(t, enginetest.Postgres(t))
	m := map[string]string{"V1__t.sql": "CREATE TABLE t (id int);", "V2__u.sql": "CREATE TABLE u (id int);", "V3__w.sql": "CREATE TABLE w (id int);"}
	migrate(t, conn, files(m), flyway.Defaults())
	refused := func(files fstest.MapFS, want string) {
		t.Helper()
		_, err := flyway.Migrate(context.Background(), conn, files, flyway.Defaults())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Migrate: %v\nwant an error with %q", err, want)
		}
	}
	gone := map[string]string{"V1__t.sql": m["V1__t.sql"], "V3__w.sql": m["V3__w.sql"]}
	refused(files(gone), "Detected applied migration not resolved locally: version 2 (V2__u.sql)")
	renamed := map[string]string{"V1__t.sql": m["V1__t.sql"], "V2__the_u.sql": m["V2__u.sql"], "V3__w.sql": m["V3__w.sql"]}
	refused(files(renamed), "Migration description mismatch for migration version 2 (classpath:db/migration/V2__the_u.sql)\n-> Applied to database : u\n-> Resolved locally    : the u")
	// A failed row, as Flyway writes one when a migration it ran outside a
	// transaction fails.
	if _, err := conn.Exec(context.Background(), `INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum, installed_by, execution_time, success) VALUES (4, '4', 'x', 'SQL', 'V4__x.sql', 1, 'postgres', 0, false)`); err != nil {
		t.Fatal(err)
	}
	m["V4__x.sql"] = "SELECT 1;"
	refused(files(m), "Detected failed migration: version 4")
	s := flyway.Defaults()
	s.ValidateOnMigrate = false
	_, err := flyway.Migrate(context.Background(), conn, files(m), s)
	if err == nil || !strings.Contains(err.Error(), `schema "public" contains a failed migration, version 4`) {
		t.Errorf("without validation: %v, want the failed migration refused", err)
	}
}

// TestOutOfOrder: a pending version older than the newest applied is
// refused, as Flyway refuses it by default; without validation it is
// left alone; with out-of-order it is applied.
func TestOutOfOrder(t *testing.T) {
	conn := connect(t, enginetest.Postgres(t))
	m := map[string]string{"V1__t.sql": "CREATE TABLE t (id int);", "V3__w.sql": "CREATE TABLE w (id int);"}
	migrate(t, conn, files(m), flyway.Defaults())
	m["V2__u.sql"] = "CREATE TABLE u (id int);"
	_, err := flyway.Migrate(context.Background(), conn, files(m), flyway.Defaults())
	if err == nil || !strings.Contains(err.Error(), "Detected resolved migration not applied to database: version 2 (classpath:db/migration/V2__u.sql), older than the newest applied (3)") {
		t.Errorf("Migrate: %v, want V2 refused", err)
	}
	s := flyway.Defaults()
	s.ValidateOnMigrate = false
	if res := migrate(t, conn, files(m), s); len(res.Applied) != 0 {
		t.Errorf("without validation, applied %+v; Flyway ignores V2", res.Applied)
	}
	s.OutOfOrder = true
	res := migrate(t, conn, files(m), s)
	if len(res.Applied) != 1 || res.Applied[0].Version != "2" || !res.Applied[0].OutOfOrder {
		t.Errorf("out of order: applied %+v, want V2, out of order", res.Applied)
	}
	if res := migrate(t, conn, files(m), flyway.Defaults()); len(res.Applied) != 0 {
		t.Errorf("after: applied %+v", res.Applied)
	}
}

// TestBaselineOnMigrate: a schema with objects and no history is refused,
// or, with baseline-on-migrate, given a baseline row; the migrations up to
// its version are not applied.
func TestBaselineOnMigrate(t *testing.T) {
	conn := connect(t, enginetest.Postgres(t))
	if _, err := conn.Exec(context.Background(), "CREATE TABLE legacy (id int)"); err != nil {
		t.Fatal(err)
	}
	m := map[string]string{"V1__t.sql": "CREATE TABLE t (id int);", "V2__u.sql": "CREATE TABLE u (id int);", "V3__w.sql": "CREATE TABLE w (id int);"}
	_, err := flyway.Migrate(context.Background(), conn, files(m), flyway.Defaults())
	if err == nil || !strings.Contains(err.Error(), `found non-empty schema "public" but no schema history table "public"."flyway_schema_history"`) {
		t.Errorf("Migrate: %v, want the non-empty schema refused", err)
	}
	s := flyway.Defaults()
	s.BaselineOnMigrate, s.BaselineVersion = true, "2"
	res := migrate(t, conn, files(m), s)
	if !res.Baselined || res.InitialVersion != "2" || res.Version != "3" || len(res.Applied) != 1 || res.Applied[0].Version != "3" {
		t.Errorf("result %+v", res)
	}
	equalLines(t, "history", history(t, conn), []string{
		"1|2|<< Flyway Baseline >>|BASELINE|<< Flyway Baseline >>|NULL|postgres|true",
		"2|3|w|SQL|V3__w.sql|" + checksum(t, m["V3__w.sql"]) + "|postgres|true",
	})
	if res := migrate(t, conn, files(m), s); len(res.Applied) != 0 {
		t.Errorf("again: applied %+v", res.Applied)
	}
}

// TestConcurrentMigrateMigratesOnce: instances starting at once, each on
// a connection of its own, wait for one another's lock: every migration
// runs once (each would fail run twice), and each instance finds the
// schema migrated.
func TestConcurrentMigrateMigratesOnce(t *testing.T) {
	url := enginetest.Postgres(t)
	m := map[string]string{
		"V1__t.sql": "CREATE TABLE t (id int); SELECT pg_sleep(0.1);",
		"V2__u.sql": "CREATE TABLE u (id int); INSERT INTO t VALUES (2);",
		"V3__w.sql": "CREATE TABLE w (id int); INSERT INTO t VALUES (3);",
		"R__v.sql":  "CREATE VIEW v AS SELECT id FROM t; INSERT INTO t VALUES (100);",
	}
	const instances = 8
	var wg sync.WaitGroup
	results := make([]*flyway.Result, instances)
	errs := make([]error, instances)
	for i := range instances {
		conn := connect(t, url)
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			results[i], errs[i] = flyway.Migrate(ctx, conn, files(m), flyway.Defaults())
		})
	}
	wg.Wait()
	applied := 0
	for i := range instances {
		if errs[i] != nil {
			t.Errorf("instance %d: %v", i, errs[i])
			continue
		}
		applied += len(results[i].Applied)
		if results[i].Version != "3" {
			t.Errorf("instance %d ended at version %q", i, results[i].Version)
		}
	}
	if applied != 4 {
		t.Errorf("the instances applied %d migrations in all, want 4", applied)
	}
	conn := connect(t, url)
	if n := len(history(t, conn)); n != 4 {
		t.Errorf("%d rows in the history, want 4", n)
	}
	var sum int
	if err := conn.QueryRow(context.Background(), "SELECT sum(id) FROM t").Scan(&sum); err != nil || sum != 105 {
		t.Errorf("sum(id) = %d, %v; want 105 (each insert once)", sum, err)
	}
}

// TestFailedMigrationRollsBack: a migration that fails is rolled back
// whole, its row included, and the error names the file and the line;
// fixed, it is applied.
func TestFailedMigrationRollsBack(t *testing.T) {
	conn := connect(t, enginetest.Postgres(t))
	m := map[string]string{"V1__t.sql": "CREATE TABLE t (id int);", "V2__u.sql": "CREATE TABLE u (id int);\nINSERT INTO u VALUES (1);\nINSERT INTO nowhere VALUES (1);\n"}
	_, err := flyway.Migrate(context.Background(), conn, files(m), flyway.Defaults())
	if err == nil || !strings.Contains(err.Error(), "migration classpath:db/migration/V2__u.sql failed, and was rolled back: line 3:") || !strings.Contains(err.Error(), "nowhere") {
		t.Fatalf("Migrate: %v", err)
	}
	var u *string
	if err := conn.QueryRow(context.Background(), "SELECT to_regclass('u')::text").Scan(&u); err != nil || u != nil {
		t.Errorf("table u survived the failure: %v, %v", u, err)
	}
	equalLines(t, "history", history(t, conn), []string{"1|1|t|SQL|V1__t.sql|" + checksum(t, m["V1__t.sql"]) + "|postgres|true"})
	m["V2__u.sql"] = "CREATE TABLE u (id int);"
	if res := migrate(t, conn, files(m), flyway.Defaults()); len(res.Applied) != 1 {
		t.Errorf("fixed: applied %+v", res.Applied)
	}
	m["V3__c.sql"] = "CREATE TABLE c (id int); COMMIT; CREATE TABLE d (id int);"
	if _, err := flyway.Migrate(context.Background(), conn, files(m), flyway.Defaults()); err == nil || !strings.Contains(err.Error(), "ended its transaction") {
		t.Errorf("a migration that commits: %v", err)
	}
}

// TestFutureAndDisabledAndNoSchema: a version newer than every file is
// accepted, as Flyway accepts it, and reported; Enabled=false does
// nothing; a search_path naming no schema that exists is refused.
func TestFutureAndDisabledAndNoSchema(t *testing.T) {
	url := enginetest.Postgres(t)
	conn := connect(t, url)
	m := map[string]string{"V1__t.sql": "CREATE TABLE t (id int);", "V2__u.sql": "CREATE TABLE u (id int);"}
	migrate(t, conn, files(m), flyway.Defaults())
	delete(m, "V2__u.sql")
	if res := migrate(t, conn, files(m), flyway.Defaults()); len(res.Future) != 1 || res.Future[0] != "2" || res.Version != "2" {
		t.Errorf("a newer build's schema: %+v", res)
	}
	s := flyway.Defaults()
	s.Enabled = false
	if res, err := flyway.Migrate(context.Background(), conn, nil, s); err != nil || res.Table != "" {
		t.Errorf("disabled: %+v, %v", res, err)
	}
	other := connect(t, url)
	if _, err := other.Exec(context.Background(), "SET search_path = nowhere"); err != nil {
		t.Fatal(err)
	}
	if _, err := flyway.Migrate(context.Background(), other, files(m), flyway.Defaults()); err == nil || !strings.Contains(err.Error(), "no current schema") {
		t.Errorf("no schema: %v", err)
	}
}
