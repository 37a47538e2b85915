package flyway

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestChecksumIsFlyways: the values are Flyway 12.4.0's own, computed by
// ChecksumCalculator.calculate over a StringResource of each content
// (flyway-core's classes, run once with java; conformance/flyway_test.go
// checks the same against files Flyway migrates). LF, CRLF and CR line
// ends, a final newline or none, and a leading byte order mark give one
// checksum; a BOM past the first line counts.
func TestChecksumIsFlyways(t *testing.T) {
	for _, c := range []struct {
		name, content string
		want          int32
	}{
		{"empty", "", 0},
		{"lf", "CREATE TABLE t (id int);\nINSERT INTO t VALUES (1);\n", 169406234},
		{"crlf", "CREATE TABLE t (id int);\r\nINSERT INTO t VALUES (1);\r\n", 169406234},
		{"cr", "CREATE TABLE t (id int);\rINSERT INTO t VALUES (1);\r", 169406234},
		{"no final newline", "CREATE TABLE t (id int);\nINSERT INTO t VALUES (1);", 169406234},
		{"bom", "\uFEFFCREATE TABLE t (id int);\nINSERT INTO t VALUES (1);\n", 169406234},
		{"bom on the second line", "\n\uFEFFSELECT 1;", -1606921097},
		{"blank lines", "\n\n\r\n", 0},
		{"unicode", "-- café ☕ 𝄞\nSELECT 'ü';\n", 1084571139},
		{"one line", "SELECT 1;", 78787420},
	} {
		got, err := Checksum([]byte(c.content))
		if err != nil || got != c.want {
			t.Errorf("%s: Checksum = %d, %v; want %d (Flyway's)", c.name, got, err, c.want)
		}
	}
	if _, err := Checksum([]byte("SELECT '\xff';")); err == nil {
		t.Error("Checksum accepted a file that is not UTF-8, which Flyway cannot read")
	}
}

// TestLockIDIsFlyways: Flyway's key for the table, computed with Java
// (LOCK_MAGIC_NUM + the quoted name's hashCode).
func TestLockIDIsFlyways(t *testing.T) {
	if got := LockID("public", "flyway_schema_history"); got != 77433833903597 {
		t.Errorf("LockID(public, flyway_schema_history) = %d, want 77433833903597", got)
	}
	if got := LockID("app", `My"History`); got != 77429567423082 {
		t.Errorf(`LockID(app, My"History) = %d, want 77429567423082`, got)
	}
}

func TestVersionsOrderAsFlyways(t *testing.T) {
	// Each is older than the next; those on one line are the same version.
	order := [][]string{{"0"}, {"1", "1.0", "01", "001.000", "1_0"}, {"1.1", "1_1", "1.01"}, {"1.2"}, {"1.10"}, {"2"}, {"10"}, {"2024.01.15", "2024_1_15"}, {"20240116"}}
	var all []version
	for i, group := range order {
		for _, s := range group {
			v, err := parseVersion(s)
			if err != nil {
				t.Fatalf("parseVersion(%q): %v", s, err)
			}
			if i > 0 {
				if c := v.compare(all[len(all)-1]); c <= 0 && !slices.Contains(group, all[len(all)-1].text) {
					t.Errorf("%s is not newer than %s", s, all[len(all)-1])
				}
			}
			for _, same := range group {
				w, _ := parseVersion(same)
				if v.compare(w) != 0 {
					t.Errorf("%s and %s differ", s, same)
				}
			}
			all = append(all, v)
		}
	}
	if v, _ := parseVersion("1_1"); v.text != "1.1" {
		t.Errorf("1_1 is written %q, want 1.1 (underscores as dots, as Flyway records it)", v.text)
	}
	if v, _ := parseVersion("005"); v.text != "005" {
		t.Errorf("005 is written %q, want 005 (as the file names it)", v.text)
	}
	for _, bad := range []string{"", "1..2", "1.", ".1", "1.a", "v1", "1-2", "latest", "current"} {
		if _, err := parseVersion(bad); err == nil {
			t.Errorf("parseVersion(%q) accepted it", bad)
		}
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		name        string
		ok          bool
		version     string // "" for repeatable
		description string
		refused     string
	}{
		{name: "V1__init.sql", ok: true, version: "1", description: "init"},
		{name: "V1_1__add_an_index.SQL", ok: true, version: "1.1", description: "add an index"},
		{name: "V2.sql", ok: true, version: "2", description: ""},
		{name: "V3__two__parts.sql", ok: true, version: "3", description: "two  parts"},
		{name: "R__views.sql", ok: true, description: "views"},
		{name: "R__my_views.sql", ok: true, description: "my views"},
		{name: "V1_init.sql"},    // one underscore: version "1_init", which Flyway ignores
		{name: "R1__views.sql"},  // a repeatable with a version
		{name: "v1__init.sql"},   // prefixes are case-sensitive
		{name: "V__nothing.sql"}, // no version
		{name: "V.sql"},
		{name: "V1__init.txt"},
		{name: "schema.sql"},
		{name: "afterMigrate.sql", refused: "callback"},
		{name: "beforeEachMigrate__log.sql", refused: "callback"},
		{name: "afterMigrateFoo.sql"}, // not a callback's name: ignored
		{name: "B5__snapshot.sql", refused: "baseline migration"},
		{name: "V1__init.sql.conf", refused: ".sql.conf"},
	} {
		m, ok, err := parseName(c.name)
		switch {
		case c.refused != "":
			if err == nil || !strings.Contains(err.Error(), c.refused) {
				t.Errorf("%s: err = %v, want a refusal naming %q", c.name, err, c.refused)
			}
		case err != nil || ok != c.ok:
			t.Errorf("%s: ok = %v, err = %v; want ok = %v", c.name, ok, err, c.ok)
		case !ok:
		case c.version == "" && m.version != nil, c.version != "" && (m.version == nil || m.version.text != c.version), m.description != c.description:
			t.Errorf("%s: version %v, description %q; want %q, %q", c.name, m.version, m.description, c.version, c.description)
		}
	}
}

func TestResolveOrdersAndRefuses(t *testing.T) {
	fsys := fstest.MapFS{
		"db/migration/V2__b.sql":         {Data: []byte("SELECT 2;")},
		"db/migration/V1_1__a.sql":       {Data: []byte("SELECT 11;")},
		"db/migration/sub/V10__j.sql":    {Data: []byte("SELECT 10;")},
		"db/migration/V1__a.sql":         {Data: []byte("\uFEFFSELECT 1;\r\n")},
		"db/migration/R__z.sql":          {Data: []byte("SELECT 'z';")},
		"db/migration/R__a.sql":          {Data: []byte("SELECT 'a';")},
		"db/migration/R__\U0001F600.sql": {Data: []byte("SELECT 'smile';")},
		"db/migration/R__\uFF5E.sql":     {Data: []byte("SELECT 'tilde';")},
		"db/migration/V1_init.sql":       {Data: []byte("SELECT 0;")},
		"db/migration/README.md":         {Data: []byte("not a migration")},
	}
	locs, err := locations(fsys, []string{"classpath:db/migration"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := resolve(locs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range r.migrations {
		got = append(got, m.script)
	}
	// Java orders U+1F600 (a surrogate pair, D83D DE00) before U+FF5E.
	want := []string{"V1__a.sql", "V1_1__a.sql", "V2__b.sql", "sub/V10__j.sql", "R__a.sql", "R__z.sql", "R__\U0001F600.sql", "R__\uFF5E.sql"}
	if !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
	if r.migrations[0].sql != "SELECT 1;\r\n" {
		t.Errorf("the BOM is sent to PostgreSQL: %q", r.migrations[0].sql)
	}
	if !slices.Equal(r.ignored, []string{"classpath:db/migration/V1_init.sql"}) {
		t.Errorf("ignored %q", r.ignored)
	}

	for name, files := range map[string]fstest.MapFS{
		"found more than one migration with version 1": {"m/V1__a.sql": {}, "m/V1.0__b.sql": {}},
		"found more than one repeatable migration":     {"m/R__a.sql": {}, "m/sub/R__a.sql": {}},
		"line 2: Flyway would replace a placeholder":   {"m/V1__a.sql": {Data: []byte("SELECT 1;\nSELECT '${user}';")}},
		"not UTF-8":    {"m/V1__a.sql": {Data: []byte("SELECT '\xe9';")}},
		"SQL callback": {"m/afterMigrate.sql": {}},
	} {
		locs, _ := locations(files, []string{"m"})
		if _, err := resolve(locs); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("resolve: %v, want an error with %q", err, name)
		}
	}
	locs, _ = locations(fstest.MapFS{}, []string{"classpath:db/{vendor}"})
	if r, err := resolve(locs); err != nil || !slices.Equal(r.missing, []string{"classpath:db/postgresql"}) {
		t.Errorf("a missing location: %v, %v; want it reported missing", r.missing, err)
	}
	if _, err := locations(fsys, []string{"s3:bucket/migrations"}); err == nil {
		t.Error("an s3: location was accepted")
	}
}
