package conformance_test

// framework/datasource/flyway against Flyway itself: Spring Boot's Flyway
// (flyway/, test equipment: a Spring Boot application with a DataSource
// and Flyway, built by flyway/build on Spring Boot 4.1.2 with Flyway
// 12.4.0 and on 3.5.7 with Flyway 11.7.2) and the Go package migrate the
// same files, each continuing a database the other migrated.

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/springport/greeter/framework/datasource/flyway"
	"github.com/springport/greeter/framework/testing/enginetest"
)

// flywayJar is the path of the flavour's jar, which flyway/build makes.
func flywayJar(flavour string) string {
	return filepath.Join("flyway", "target", flavour, "app.jar")
}

// needFlyway skips the test (or fails it, with GREETER_TEST_SPRING=1) when
// java or the flavour's jar is missing.
func needFlyway(t *testing.T, flavour string) {
	t.Helper()
	needJar(t, flywayJar(flavour), "conformance/flyway/build")
}

// flywayVersions are the Flyway each flavour's BOM manages.
var flywayVersions = map[string]string{"boot4": "12.4.0", "boot35": "11.7.2"}

// springFlyway runs the flavour's Spring Boot application on the database
// of dbURL with the migrations in dir: at start-up Spring Boot's Flyway
// migrates (validating first, as by default), then runs the commands
// (validate, info). It returns the output and the rows that info printed,
// each "version|description|type|state|checksum|script".
func springFlyway(t *testing.T, flavour, dbURL, dir string, settings []string, commands ...string) (out string, info []string, err error) {
	t.Helper()
	u, perr := url.Parse(dbURL)
	if perr != nil {
		t.Fatal(perr)
	}
	args := append(slices.Clone(jvmOptions), "-jar", flywayJar(flavour),
		"--spring.datasource.url=jdbc:postgresql://"+u.Host+u.Path,
		"--spring.datasource.username="+u.User.Username(),
		"--spring.flyway.locations=filesystem:"+dir)
	if p, ok := u.User.Password(); ok {
		args = append(args, "--spring.datasource.password="+p)
	}
	args = append(append(args, settings...), commands...)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "java", args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(strings.ToUpper(kv), "SPRING_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	b, err := cmd.CombinedOutput()
	out = string(b)
	for line := range strings.Lines(out) {
		fields := strings.Split(strings.TrimRight(line, "\n"), "\t")
		switch fields[0] {
		case "flyway-version":
			if want := flywayVersions[flavour]; fields[1] != want {
				t.Errorf("%s runs Flyway %s, want %s", flavour, fields[1], want)
			}
		case "flyway-info":
			info = append(info, strings.Join(fields[2:], "|"))
		}
	}
	return out, info, err
}

// writeMigrations writes files into dir (made if missing).
func writeMigrations(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// goMigrate runs the Go package on the database with the migrations in
// dir, Spring Boot's defaults but the locations.
func goMigrate(t *testing.T, dbURL, dir string, change func(*flyway.Settings)) (*flyway.Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	s := flyway.Defaults()
	s.Locations = []string{"filesystem:" + dir}
	if change != nil {
		change(&s)
	}
	return flyway.Migrate(ctx, conn, nil, s)
}

// historyRows reads flyway_schema_history but what differs between runs
// (installed_on, execution_time), one "rank|version|description|type|script|checksum|installed_by|success" a row.
func historyRows(t *testing.T, dbURL string) []string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(context.Background(), `SELECT concat_ws('|', installed_rank, coalesce(version, 'NULL'), description, type, script, coalesce(checksum::text, 'NULL'), installed_by, success) FROM flyway_schema_history ORDER BY installed_rank`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// flywayCorpus are migrations whose names and contents cover what the
// checksum and the order depend on: a byte order mark, CRLF, CR and LF
// line ends, a final newline or none, blank lines, characters past ASCII
// and past U+FFFF, leading zeros, underscores in versions, a subfolder,
// an empty description, repeatable migrations.
var flywayCorpus = map[string]string{
	"V1__create_t.sql":          "\uFEFFCREATE TABLE t (id int PRIMARY KEY, name text);\r\nCOMMENT ON TABLE t IS 'BOM and CRLF';\r\n",
	"V1_1__add_a_row.sql":       "INSERT INTO t VALUES (1, 'one')",
	"V2__add_column.sql":        "\n\nALTER TABLE t ADD COLUMN note text;\n\n\nINSERT INTO t VALUES (2, 'two', 'café ☕ 𝄞');\n\n",
	"V002_1__leading_zeros.sql": "INSERT INTO t VALUES (21, 'two point one');\rINSERT INTO t VALUES (22, 'CR only');\r",
	"V2_5.sql":                  "-- no description\nINSERT INTO t VALUES (25, 'two and a half');\n",
	"sub/V10__in_a_sub.sql":     "INSERT INTO t VALUES (10, 'ten');\n",
	"R__b_view.sql":             "CREATE OR REPLACE VIEW tb AS SELECT id FROM t;\n",
	"R__a_view.sql":             "CREATE OR REPLACE VIEW ta AS SELECT name, '𝄞' AS clef FROM t;\n",
}

// TestFlywayContinuesGoAndGoContinuesFlyway: on each Spring Boot line,
// Flyway and the Go package migrate the same files into rows that are the
// same, checksums included; each then continues the other's database
// (validating it, adding a migration, re-running a changed repeatable
// migration) with no error, and Flyway's info shows every migration
// applied; the same for a baseline; and each holds the other off with
// Flyway's lock.
func TestFlywayContinuesGoAndGoContinuesFlyway(t *testing.T) {
	enginetest.PostgresServer(t)
	for _, flavour := range springFlavours {
		t.Run(flavour, func(t *testing.T) {
			needFlyway(t, flavour)
			t.Parallel()
			testFlywayBothWays(t, flavour)
		})
	}
}

func testFlywayBothWays(t *testing.T, flavour string) {
	dir := t.TempDir()
	writeMigrations(t, dir, flywayCorpus)
	byFlyway, byGo := enginetest.Postgres(t), enginetest.Postgres(t)

	// The same files, migrated by each.
	if out, _, err := springFlyway(t, flavour, byFlyway, dir, nil); err != nil {
		t.Fatalf("Flyway's migrate: %v\n%s", err, out)
	}
	if _, err := goMigrate(t, byGo, dir, nil); err != nil {
		t.Fatalf("Go's migrate: %v", err)
	}
	flywayRows, goRows := historyRows(t, byFlyway), historyRows(t, byGo)
	if !slices.Equal(flywayRows, goRows) {
		t.Errorf("the schema history differs:\nFlyway %s:\n%s\nGo:\n%s", flywayVersions[flavour], strings.Join(flywayRows, "\n"), strings.Join(goRows, "\n"))
	}
	for name, content := range flywayCorpus {
		sum, err := flyway.Checksum([]byte(content))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(flywayRows, func(r string) bool { return strings.HasSuffix(r, "|"+name+"|"+fmt.Sprint(sum)+"|postgres|t") }) {
			t.Errorf("Flyway did not record %s with the checksum %d that Go computes:\n%s", name, sum, strings.Join(flywayRows, "\n"))
		}
	}

	// Each continues the other's: a new version and a changed repeatable
	// migration.
	writeMigrations(t, dir, map[string]string{
		"V11__add_index.sql": "CREATE INDEX t_name ON t (name);\n",
		"R__b_view.sql":      "CREATE OR REPLACE VIEW tb AS SELECT id, note FROM t;\n",
	})
	res, err := goMigrate(t, byFlyway, dir, nil)
	if err != nil {
		t.Fatalf("Go continuing Flyway's database: %v", err)
	}
	if got := appliedScripts(res); !slices.Equal(got, []string{"V11__add_index.sql", "R__b_view.sql"}) {
		t.Errorf("Go applied %q to Flyway's database, want V11 and R__b_view", got)
	}
	if res, err := goMigrate(t, byFlyway, dir, nil); err != nil || len(res.Applied) != 0 {
		t.Errorf("Go again on Flyway's database: %v, applied %q", err, appliedScripts(res))
	}
	out, info, err := springFlyway(t, flavour, byGo, dir, nil, "validate", "info")
	if err != nil {
		t.Fatalf("Flyway continuing Go's database: %v\n%s", err, out)
	}
	if !strings.Contains(out, `Migrating schema "public" to version "11 - add index"`) || !strings.Contains(out, `Migrating schema "public" with repeatable migration "b view"`) {
		t.Errorf("Flyway did not apply V11 and R__b_view to Go's database:\n%s", out)
	}
	checkAllApplied(t, "Flyway's info of Go's database", info)
	if out, info, err := springFlyway(t, flavour, byFlyway, dir, nil, "validate", "info"); err != nil {
		t.Errorf("Flyway validating its database that Go continued: %v\n%s", err, out)
	} else {
		checkAllApplied(t, "Flyway's info of its database that Go continued", info)
	}
	if res, err := goMigrate(t, byGo, dir, nil); err != nil || len(res.Applied) != 0 {
		t.Errorf("Go again on its database that Flyway continued: %v, applied %q", err, appliedScripts(res))
	}
	if a, b := historyRows(t, byFlyway), historyRows(t, byGo); !slices.Equal(a, b) {
		t.Errorf("after continuing each other's, the histories differ:\nFlyway's database:\n%s\nGo's:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}

	// A baseline: a schema with a table of its own, baseline-on-migrate at
	// version 1, so that V1 is not applied and V1.1 on are.
	baseDir := t.TempDir()
	writeMigrations(t, baseDir, map[string]string{
		"V1__create_t.sql":    flywayCorpus["V1__create_t.sql"],
		"V1_1__add_a_row.sql": flywayCorpus["V1_1__add_a_row.sql"],
	})
	baseFlyway, baseGo := enginetest.Postgres(t), enginetest.Postgres(t)
	for _, db := range []string{baseFlyway, baseGo} {
		conn, err := pgx.Connect(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		_, err = conn.Exec(context.Background(), "CREATE TABLE t (id int PRIMARY KEY, name text)")
		conn.Close(context.Background())
		if err != nil {
			t.Fatal(err)
		}
	}
	if out, _, err := springFlyway(t, flavour, baseFlyway, baseDir, []string{"--spring.flyway.baseline-on-migrate=true"}); err != nil {
		t.Fatalf("Flyway's baseline: %v\n%s", err, out)
	}
	if _, err := goMigrate(t, baseGo, baseDir, func(s *flyway.Settings) { s.BaselineOnMigrate = true }); err != nil {
		t.Fatalf("Go's baseline: %v", err)
	}
	if a, b := historyRows(t, baseFlyway), historyRows(t, baseGo); !slices.Equal(a, b) {
		t.Errorf("the baselined histories differ:\nFlyway's:\n%s\nGo's:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	writeMigrations(t, baseDir, map[string]string{"V2__more.sql": "INSERT INTO t VALUES (3, 'three');"})
	if res, err := goMigrate(t, baseFlyway, baseDir, nil); err != nil || !slices.Equal(appliedScripts(res), []string{"V2__more.sql"}) {
		t.Errorf("Go continuing Flyway's baseline: %v, applied %q", err, appliedScripts(res))
	}

	// Flyway's lock: while Go's key is held, Flyway cannot take its own.
	conn, err := pgx.Connect(context.Background(), baseGo)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	tx, err := conn.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(context.Background(), "SELECT pg_advisory_xact_lock($1)", flyway.LockID("public", "flyway_schema_history")); err != nil {
		t.Fatal(err)
	}
	out, _, err = springFlyway(t, flavour, baseGo, baseDir, []string{"--spring.flyway.lock-retry-count=0"})
	if err == nil || !strings.Contains(out, "Number of retries exceeded while attempting to acquire PostgreSQL advisory lock") {
		t.Errorf("Flyway migrated while Go held the lock (%v):\n%s", err, out)
	}
	if err := tx.Rollback(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func appliedScripts(res *flyway.Result) []string {
	var out []string
	if res != nil {
		for _, a := range res.Applied {
			out = append(out, a.Script)
		}
	}
	return out
}

// checkAllApplied fails unless Flyway's info lists every migration of
// flywayCorpus and V11 as applied: Success, or Superseded for a
// repeatable migration's earlier run.
func checkAllApplied(t *testing.T, what string, info []string) {
	t.Helper()
	success := 0
	for _, line := range info {
		state := strings.Split(line, "|")[3]
		switch state {
		case "Success":
			success++
		case "Superseded":
		default:
			t.Errorf("%s: %s", what, line)
		}
	}
	if want := len(flywayCorpus) + 1; success != want {
		t.Errorf("%s: %d migrations Success, want %d:\n%s", what, success, want, strings.Join(info, "\n"))
	}
}
