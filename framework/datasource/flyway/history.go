package flyway

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/jackc/pgx/v5"
)

// The schema history's types that this package reads (Flyway's
// CoreMigrationType and BaselineMigrationType): it writes SQL and
// BASELINE rows only.
const (
	typeSQL         = "SQL"
	typeBaseline    = "BASELINE"
	typeSchema      = "SCHEMA"       // Flyway created the schema: << Flyway Schema Creation >>, version NULL
	typeDelete      = "DELETE"       // Flyway's repair marked a missing migration deleted
	typeSQLBaseline = "SQL_BASELINE" // a baseline migration (B…) that Flyway ran
)

// synthetic reports whether a type is only ever in the schema history,
// never a file's (CoreMigrationType's synthetic flag).
func synthetic(t string) bool { return t == typeSchema || t == typeBaseline || t == typeDelete }

// baselineType reports whether a type marks a baseline.
func baselineType(t string) bool { return t == typeBaseline || t == typeSQLBaseline }

// undoType reports whether a type is one of Flyway Teams' undo migrations.
func undoType(t string) bool { return strings.HasPrefix(t, "UNDO_") }

// A row is one row of the schema history.
type row struct {
	rank        int
	version     *version // nil for repeatable migrations and the schema marker
	description string
	typ         string
	script      string
	checksum    *int32
	installedBy string
	success     bool
}

// table is the schema history table of a schema.
type table struct {
	schema, name string
}

// quoteIdent quotes an identifier as Flyway's PostgreSQL support does
// (PostgreSQLDatabase.doQuote).
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// String is the table as Flyway names it in SQL and messages:
// "public"."flyway_schema_history".
func (t table) String() string { return quoteIdent(t.schema) + "." + quoteIdent(t.name) }

// lockMagic is the base of Flyway's advisory lock keys on PostgreSQL
// (PostgreSQLAdvisoryLockTemplate.LOCK_MAGIC_NUM): "Flyway" in ASCII.
const lockMagic int64 = 0x46<<40 + 0x6C<<32 + 0x79<<24 + 0x77<<16 + 0x61<<8 + 0x79

// LockID returns the key of the advisory lock that Flyway takes on
// PostgreSQL while it migrates into the history table schema.table:
// lockMagic plus the Java hashCode of the table's quoted name
// (PostgreSQLConnection.lock: table.toString().hashCode()). Flyway
// (10 and later) takes it as a transaction lock, pg_try_advisory_xact_lock,
// retried every second; this package waits for it with
// pg_advisory_xact_lock. Either excludes the other.
func LockID(schema, name string) int64 {
	return lockMagic + int64(javaHash(table{schema, name}.String()))
}

// javaHash is Java's String.hashCode: s[0]*31^(n-1) + … + s[n-1] over
// UTF-16 code units, in 32-bit arithmetic.
func javaHash(s string) int32 {
	var h int32
	for _, u := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(u)
	}
	return h
}

// exists reports whether the table is there (PostgreSQLTable.doExists).
func (t table) exists(ctx context.Context, tx pgx.Tx) (bool, error) {
	var ok bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c
		JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind = 'r')`, t.schema, t.name).Scan(&ok)
	return ok, err
}

// schemaEmpty reports whether the schema holds no table, view, sequence,
// type or function of its own (extensions' objects do not count), as
// Flyway's PostgreSQLSchema.doEmpty decides before a baseline.
func schemaEmpty(ctx context.Context, tx pgx.Tx, schema string) (bool, error) {
	var found bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (
		SELECT c.oid FROM pg_catalog.pg_class c
		JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
		LEFT JOIN pg_catalog.pg_depend d ON d.objid = c.oid AND d.deptype = 'e'
		WHERE n.nspname = $1 AND d.objid IS NULL AND c.relkind IN ('r', 'v', 'S', 't')
	UNION ALL
		SELECT t.oid FROM pg_catalog.pg_type t
		JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
		LEFT JOIN pg_catalog.pg_depend d ON d.objid = t.oid AND d.deptype = 'e'
		WHERE n.nspname = $1 AND d.objid IS NULL AND t.typcategory NOT IN ('A', 'C')
	UNION ALL
		SELECT p.oid FROM pg_catalog.pg_proc p
		JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
		LEFT JOIN pg_catalog.pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
		WHERE n.nspname = $1 AND d.objid IS NULL)`, schema).Scan(&found)
	return !found, err
}

// create makes the table with Flyway's DDL for PostgreSQL
// (PostgreSQLDatabase.getRawCreateScript, without a tablespace).
func (t table) create(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `CREATE TABLE `+t.String()+` (
    "installed_rank" INT NOT NULL,
    "version" VARCHAR(50),
    "description" VARCHAR(200) NOT NULL,
    "type" VARCHAR(20) NOT NULL,
    "script" VARCHAR(1000) NOT NULL,
    "checksum" INTEGER,
    "installed_by" VARCHAR(100) NOT NULL,
    "installed_on" TIMESTAMP NOT NULL DEFAULT now(),
    "execution_time" INTEGER NOT NULL,
    "success" BOOLEAN NOT NULL
);
ALTER TABLE `+t.String()+` ADD CONSTRAINT `+quoteIdent(t.name+"_pk")+` PRIMARY KEY ("installed_rank");
CREATE INDEX `+quoteIdent(t.name+"_s_idx")+` ON `+t.String()+` ("success");`)
	return err
}

// rows reads the history in the order of installed_rank.
func (t table) rows(ctx context.Context, tx pgx.Tx) ([]row, error) {
	rs, err := tx.Query(ctx, `SELECT "installed_rank", "version", "description", "type", "script", "checksum", "installed_by", "success" FROM `+t.String()+` ORDER BY "installed_rank"`)
	if err != nil {
		return nil, err
	}
	var out []row
	for rs.Next() {
		var r row
		var v *string
		if err := rs.Scan(&r.rank, &v, &r.description, &r.typ, &r.script, &r.checksum, &r.installedBy, &r.success); err != nil {
			rs.Close()
			return nil, err
		}
		if v != nil {
			pv, err := parseVersion(*v)
			if err != nil {
				rs.Close()
				return nil, fmt.Errorf("%s, installed_rank %d: %w", t, r.rank, err)
			}
			r.version = &pv
		}
		out = append(out, r)
	}
	return out, rs.Err()
}

// insert records a row as Flyway's JdbcTableSchemaHistory does; the
// database sets installed_on.
func (t table) insert(ctx context.Context, tx pgx.Tx, r row, took time.Duration) error {
	var v *string
	if r.version != nil {
		v = &r.version.text
	}
	_, err := tx.Exec(ctx, `INSERT INTO `+t.String()+` ("installed_rank", "version", "description", "type", "script", "checksum", "installed_by", "execution_time", "success") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		r.rank, v, abbreviateDescription(r.description), r.typ, abbreviateScript(r.script), r.checksum, r.installedBy, int32(took.Milliseconds()), r.success)
	return err
}

// abbreviateDescription fits a description to its column as Flyway's
// AbbreviationUtils does: past 200 UTF-16 units, its first 197 and "...".
func abbreviateDescription(s string) string {
	u := utf16.Encode([]rune(s))
	if len(u) <= 200 {
		return s
	}
	return string(utf16.Decode(cut(u, 197))) + "..."
}

// abbreviateScript fits a script's path to its column as Flyway does:
// past 1000 UTF-16 units, "..." and its units 3 to 999.
func abbreviateScript(s string) string {
	u := utf16.Encode([]rune(s))
	if len(u) <= 1000 {
		return s
	}
	u = cut(u, 1000)[3:]
	return "..." + string(utf16.Decode(u))
}

// cut returns the first n units of u, one less where the nth would split
// a surrogate pair (which Java would split).
func cut(u []uint16, n int) []uint16 {
	if n < len(u) && utf16.IsSurrogate(rune(u[n-1])) && u[n-1] < 0xDC00 {
		n--
	}
	return u[:n]
}
