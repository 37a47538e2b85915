package postgres_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/messagestore/postgres"
)

// TestInstancesStartingTogetherMigrateOnce starts several instances at the
// same moment on an empty database: all must start, and the schema must
// be migrated once.
func TestInstancesStartingTogetherMigrateOnce(t *testing.T) {
	t.Parallel()
	url := enginetest.Postgres(t)
	const instances = 4
	dbs := make([]*postgres.DB, instances)
	errs := make([]error, instances)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range instances {
		wg.Go(func() {
			<-start
			dbs[i], errs[i] = postgres.Open(t.Context(), postgres.Options{DataSource: datasource.Options{URL: url}})
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("instance %d: %v", i, err)
			continue
		}
		t.Cleanup(dbs[i].Close)
	}
	if t.Failed() {
		return
	}
	var history string
	query(t, url, "SELECT string_agg(installed_rank || ':' || version || ':' || script || ':' || success, ' ' ORDER BY installed_rank) FROM flyway_schema_history", &history)
	if want := "1:1:V1__messages.sql:true 2:2:V2__pages.sql:true 3:3:V3__append_batches.sql:true 4:4:V4__limits.sql:true 5:5:V5__removals.sql:true"; history != want {
		t.Errorf("flyway_schema_history:\ngot  %s\nwant %s (each migration once)", history, want)
	}
	var goose bool
	query(t, url, "SELECT to_regclass('greeter_schema_version') IS NOT NULL OR to_regclass('goose_db_version') IS NOT NULL", &goose)
	if goose {
		t.Error("a goose version table was created on a fresh database")
	}
	for i, db := range dbs {
		if err := db.Messages().Append(t.Context(), message.Message{Text: "from an instance"}); err != nil {
			t.Errorf("instance %d: Append: %v", i, err)
		}
	}
}

func TestOpenAgainIsANoOp(t *testing.T) {
	t.Parallel()
	db, url := fresh(t)
	if err := db.Messages().Append(t.Context(), message.Message{Text: "kept"}); err != nil {
		t.Fatal(err)
	}
	again := open(t, url)
	if m, err := again.Messages().Get(t.Context(), 0); err != nil || m.Text != "kept" {
		t.Errorf("after opening again, Get(0) = %v, %v; want the message kept", m, err)
	}
}

// TestUpgradeFromGoose: a database that greeter's goose migrations left
// at version 5, holding messages, is continued by Flyway's: instances
// opening it together create the history once, with a baseline at goose's
// version 5, run no migration again, and keep the messages; goose's table
// stays as it was.
func TestUpgradeFromGoose(t *testing.T) {
	t.Parallel()
	url := enginetest.Postgres(t)
	if err := postgres.MigrateTo(t.Context(), url, 5); err != nil {
		t.Fatal(err)
	}
	query(t, url, `SELECT greeter_append_messages('{"from goose", "second"}'::text[]::bytea[])`)
	const instances = 4
	dbs := make([]*postgres.DB, instances)
	errs := make([]error, instances)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range instances {
		wg.Go(func() {
			<-start
			dbs[i], errs[i] = postgres.Open(t.Context(), postgres.Options{DataSource: datasource.Options{URL: url}})
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		t.Cleanup(dbs[i].Close)
	}
	var history string
	query(t, url, "SELECT string_agg(installed_rank || ':' || version || ':' || type || ':' || script, ' ' ORDER BY installed_rank) FROM flyway_schema_history", &history)
	if want := "1:5:BASELINE:<< Flyway Baseline >>"; history != want {
		t.Errorf("flyway_schema_history:\ngot  %s\nwant %s (a baseline at goose's version, nothing run again)", history, want)
	}
	var gooseVersion int64
	query(t, url, "SELECT max(version_id) FROM greeter_schema_version", &gooseVersion)
	if gooseVersion != 5 {
		t.Errorf("goose's table is at version %d, want 5, as goose left it", gooseVersion)
	}
	s := dbs[0].Messages()
	if err := s.Append(t.Context(), message.Message{Text: "after"}); err != nil {
		t.Fatal(err)
	}
	if got := stored(t, s); !slices.Equal(got, []string{"from goose", "second", "after"}) {
		t.Errorf("after the upgrade, the messages are %q", got)
	}
}

// TestUpgradeFromGooseVersion3: a database that goose left at version 3
// is given a baseline at 3, and Flyway applies V4 and V5.
func TestUpgradeFromGooseVersion3(t *testing.T) {
	t.Parallel()
	url := enginetest.Postgres(t)
	if err := postgres.MigrateTo(t.Context(), url, 3); err != nil {
		t.Fatal(err)
	}
	open(t, url)
	var history string
	query(t, url, "SELECT string_agg(installed_rank || ':' || version || ':' || type || ':' || script, ' ' ORDER BY installed_rank) FROM flyway_schema_history", &history)
	if want := "1:3:BASELINE:<< Flyway Baseline >> 2:4:SQL:V4__limits.sql 3:5:SQL:V5__removals.sql"; history != want {
		t.Errorf("flyway_schema_history:\ngot  %s\nwant %s", history, want)
	}
}

// version1 makes the database of url as version 1 of the schema left it,
// holding texts: message i at position base + i.
func version1(t *testing.T, url string, base int64, texts []string) {
	t.Helper()
	if err := postgres.MigrateTo(t.Context(), url, 1); err != nil {
		t.Fatalf("migrating to version 1: %v", err)
	}
	conn := connect(t, url)
	ctx := t.Context()
	if _, err := conn.Exec(ctx, "INSERT INTO greeter_messages (position, text) SELECT $1 + i - 1, t FROM unnest($2::text[]) WITH ORDINALITY AS u(t, i)", base, texts); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "UPDATE greeter_message_bounds SET base = $1, n = $2", base, len(texts)); err != nil {
		t.Fatal(err)
	}
}

// stored returns the texts that s holds, in order.
func stored(t *testing.T, s message.Store) []string {
	t.Helper()
	all, err := message.All(t.Context(), s)
	if err != nil {
		t.Fatalf("All: %v", err)
	}
	texts := make([]string, len(all))
	for i, m := range all {
		texts[i] = m.Text
	}
	return texts
}

// TestMigrateFromVersion1 converts a collection of version 1 that
// spans several pages (and starts past position 0, as removals at the
// front leave it) to pages and uses it.
func TestMigrateFromVersion1(t *testing.T) {
	t.Parallel()
	url := enginetest.Postgres(t)
	ctx := t.Context()
	texts := make([]string, 2500) // two full pages of 1024 and a part
	for i := range texts {
		texts[i] = fmt.Sprintf("message %d", i)
	}
	texts[0], texts[1023], texts[1024], texts[2499] = "", "héllo wörld, 日本語, 🙂", `quotes ' " \`, "last"
	version1(t, url, 7, texts)

	db := open(t, url)
	var version int64
	query(t, url, "SELECT max(version::int) FROM flyway_schema_history WHERE success", &version)
	if version != 5 {
		t.Fatalf("after Open the schema is at version %d, want 5", version)
	}
	s := db.Messages()
	if got := stored(t, s); !slices.Equal(got, texts) {
		t.Fatalf("after migrating, All differs from what version 1 held:\ngot  %.80q\nwant %.80q", got, texts)
	}
	conn := connect(t, url)
	if err := checkLayout(ctx, conn, 1024, texts); err != nil {
		t.Fatalf("after migrating: %v", err)
	}
	for _, i := range []int{0, 1023, 1024, 2047, 2048, 2499} {
		if m, err := s.Get(ctx, int64(i)); err != nil || m.Text != texts[i] {
			t.Errorf("Get(%d) = %q, %v; want %q", i, m.Text, err, texts[i])
		}
	}
	// The migrated collection is one the functions work on.
	if err := s.Remove(ctx, 1024); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, message.Message{Text: "appended"}); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Delete(slices.Clone(texts), 1024, 1025), "appended")
	if err := checkLayout(ctx, conn, 1024, want); err != nil {
		t.Fatalf("after Remove and Append: %v", err)
	}
}

// TestMigrateRefusesAnInconsistentVersion1 checks that a version 1
// collection whose bounds disagree with its rows is not converted.
func TestMigrateRefusesAnInconsistentVersion1(t *testing.T) {
	t.Parallel()
	url := enginetest.Postgres(t)
	version1(t, url, 0, []string{"a", "b", "c"})
	query(t, url, "UPDATE greeter_message_bounds SET n = 2")
	_, err := postgres.Open(t.Context(), postgres.Options{DataSource: datasource.Options{URL: url}})
	if err == nil || !strings.Contains(err.Error(), "not converting an inconsistent collection") {
		t.Fatalf("Open on an inconsistent version 1: got %v, want a refusal", err)
	}
	var version, rows int64
	query(t, url, "SELECT (SELECT coalesce(max(version::int), 1) FROM flyway_schema_history WHERE success AND type = 'SQL'), (SELECT count(*) FROM greeter_messages WHERE text IN ('a', 'b', 'c'))", &version, &rows)
	if version != 1 || rows != 3 {
		t.Errorf("after the refusal, version %d holding %d of the 3 rows; want version 1 unchanged", version, rows)
	}
}

// TestVersion2InstancesKeepAppending checks that instances of the binary
// of version 2, which append one message a call, keep working beside
// those of version 3 (a rolling upgrade).
func TestVersion2InstancesKeepAppending(t *testing.T) {
	t.Parallel()
	db, url := fresh(t)
	setPageSize(t, url, 2)
	s := db.Messages()
	version2Append := func(text string) {
		t.Helper()
		if _, err := connect(t, url).Exec(t.Context(), "SELECT greeter_append_message($1)", []byte(text)); err != nil {
			t.Fatalf("version 2's append: %v", err)
		}
	}
	if err := s.Append(t.Context(), message.Message{Text: "a"}); err != nil {
		t.Fatal(err)
	}
	version2Append("b")
	if err := s.Append(t.Context(), message.Message{Text: "c"}); err != nil {
		t.Fatal(err)
	}
	version2Append("d")
	want := []string{"a", "b", "c", "d"}
	if err := checkLayout(t.Context(), connect(t, url), 2, want); err != nil {
		t.Fatalf("appended by both versions: %v", err)
	}
}

// expectUsage checks s's Usage against the texts of the database of url,
// counted apart.
func expectUsage(t *testing.T, what string, s message.Store, url string) {
	t.Helper()
	var want message.Usage
	query(t, url, "SELECT count(*), coalesce(sum(octet_length(text)), 0) FROM greeter_messages", &want.Count, &want.Bytes)
	if got, err := s.Usage(t.Context()); err != nil || got != want {
		t.Errorf("%s: Usage = %+v, %v; want %+v", what, got, err, want)
	}
}

// TestUsageAfterUpgradeFromVersion3 checks that version 4 counts the
// bytes of the messages a database of version 3 holds, and that the
// functions of version 3, which instances of the previous binary call
// during a rolling upgrade, keep the count right.
func TestUsageAfterUpgradeFromVersion3(t *testing.T) {
	t.Parallel()
	url := enginetest.Postgres(t)
	if err := postgres.MigrateTo(t.Context(), url, 3); err != nil {
		t.Fatal(err)
	}
	setPageSize(t, url, 2)
	query(t, url, `SELECT greeter_append_messages('{"héllo", "", "abc", "wörld"}'::text[]::bytea[])`)
	s := open(t, url).Messages()
	expectUsage(t, "after the upgrade", s, url)
	for _, sql := range []string{
		"SELECT greeter_append_message('one more'::bytea)",
		"SELECT greeter_append_messages('{x, yy, zzz}'::bytea[])",
		"SELECT greeter_replace_message(0, 'a longer text than before'::bytea)",
		"SELECT greeter_replace_message(1, 'a'::bytea)",
		"SELECT greeter_remove_message(2)",
		"SELECT greeter_remove_message(0)",
	} {
		query(t, url, sql)
		expectUsage(t, "after version 3's "+sql, s, url)
	}
	if err := checkLayout(t.Context(), connect(t, url), 2, []string{"a", "wörld", "one more", "x", "yy", "zzz"}); err != nil {
		t.Error(err)
	}
}

// TestFlywayMigrationsAreGooseUps: each Flyway migration is the Up section
// of the goose migration of its version, as greeter's earlier builds
// applied it (testdata/goose), without goose's annotations, so that a
// database baselined at goose's version holds what V1 to that version
// make.
func TestFlywayMigrationsAreGooseUps(t *testing.T) {
	gooseFiles, err := filepath.Glob("testdata/goose/*.sql")
	if err != nil || len(gooseFiles) == 0 {
		t.Fatalf("testdata/goose: %v %v", gooseFiles, err)
	}
	flywayFiles, _ := filepath.Glob("db/migration/*.sql")
	if len(flywayFiles) != len(gooseFiles) {
		t.Errorf("%d Flyway migrations for %d goose ones", len(flywayFiles), len(gooseFiles))
	}
	squash := func(text string) string { return strings.Join(strings.Fields(text), " ") }
	for _, g := range gooseFiles {
		name := strings.TrimSuffix(filepath.Base(g), ".sql")
		number, description, _ := strings.Cut(name, "_")
		version, err := strconv.Atoi(number)
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		up, _, _ := strings.Cut(string(src), "-- +goose Down")
		var kept []string
		for line := range strings.Lines(up) {
			if !strings.HasPrefix(line, "-- +goose") {
				kept = append(kept, line)
			}
		}
		v, err := os.ReadFile(fmt.Sprintf("db/migration/V%d__%s.sql", version, description))
		if err != nil {
			t.Error(err)
			continue
		}
		if squash(string(v)) != squash(strings.Join(kept, "")) {
			t.Errorf("V%d__%s.sql is not the Up section of %s", version, description, g)
		}
	}
}
