package flyway

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"unicode/utf16"
)

// A migration is an SQL file of a location, as Flyway's
// SqlMigrationResolver resolves it.
type migration struct {
	// version is nil for a repeatable migration (R__…).
	version *version
	// description is the name's part after the separator, underscores
	// as spaces ("V2__add_index.sql": "add index").
	description string
	// script is the path relative to its location, as Flyway records it
	// in the script column ("V2__add_index.sql", "sub/V3__x.sql").
	script string
	// file names it in messages: the location and the script
	// ("classpath:db/migration/V2__add_index.sql").
	file     string
	checksum int32
	// sql is the content, without a leading byte order mark.
	sql string
}

// The names' parts, Flyway's defaults (sqlMigrationPrefix,
// repeatableSqlMigrationPrefix, sqlMigrationSeparator,
// sqlMigrationSuffixes), which Spring Boot leaves as they are.
const (
	versionedPrefix  = "V"
	repeatablePrefix = "R"
	// baselinePrefix names Flyway's baseline migrations
	// (B5__snapshot.sql), which this package does not run.
	baselinePrefix = "B"
	separator      = "__"
	suffix         = ".sql"
)

// callbackNames are Flyway's SQL callbacks (org.flywaydb.core.api.callback.Event),
// files such as afterMigrate.sql that Flyway runs around its commands.
// This package runs none, so it refuses a location that holds one rather
// than skip what Flyway would run.
var callbackNames = []string{
	"beforeClean", "afterClean", "afterCleanError",
	"beforeMigrate", "beforeEachMigrate", "beforeEachMigrateStatement", "afterEachMigrateStatement",
	"afterEachMigrateStatementError", "afterEachMigrate", "afterEachMigrateError",
	"beforeRepeatables", "afterVersioned", "afterMigrateApplied", "afterMigrate", "afterMigrateError",
	"beforeUndo", "beforeEachUndo", "beforeEachUndoStatement", "afterEachUndoStatement",
	"afterEachUndoStatementError", "afterEachUndo", "afterEachUndoError", "afterUndo", "afterUndoError",
	"beforeValidate", "afterValidate", "afterValidateError",
	"beforeBaseline", "afterBaseline", "afterBaselineError",
	"beforeRepair", "afterRepair", "afterRepairError",
	"beforeInfo", "afterInfo", "afterInfoError",
	"afterMigrateOperationFinish", "afterInfoOperationFinish",
	"createSchema", "beforeCreateSchema", "beforeConnect", "afterConnect",
}

// A location is where migrations are read from, as Spring's
// spring.flyway.locations names it.
type location struct {
	name string // as the setting gives it, {vendor} replaced
	fsys fs.FS
	dir  string // in fsys
}

// vendor is what Spring Boot puts for {vendor} in a location
// (DatabaseDriver.POSTGRESQL's id).
const vendor = "postgresql"

// parseLocation reads a location as Flyway's Location does: classpath:
// (the default prefix) is a folder of the embedded files, filesystem: a
// folder on disk.
func parseLocation(s string) (kind, dir string, err error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), "{vendor}", vendor)
	kind, dir, found := strings.Cut(s, ":")
	if !found {
		kind, dir = "classpath", s
	}
	switch kind {
	case "classpath":
		dir = strings.Trim(dir, "/")
		if dir == "" {
			dir = "."
		}
		if !fs.ValidPath(dir) {
			return "", "", fmt.Errorf("%q is no folder of the embedded files", s)
		}
	case "filesystem":
		if dir == "" {
			return "", "", fmt.Errorf("%q names no folder", s)
		}
	default:
		return "", "", fmt.Errorf("%q: only classpath: (a folder of the service's embedded files) and filesystem: (a folder on disk) are read here, not %s", s, kind+":")
	}
	return kind, dir, nil
}

// locations returns the settings' locations, classpath: ones in fsys.
func locations(fsys fs.FS, names []string) ([]location, error) {
	var locs []location
	for _, n := range names {
		kind, dir, err := parseLocation(n)
		if err != nil {
			return nil, err
		}
		loc := location{name: kind + ":" + dir, fsys: fsys, dir: dir}
		if kind == "filesystem" {
			loc.fsys, loc.dir = os.DirFS(dir), "."
		} else if fsys == nil {
			return nil, fmt.Errorf("location %s: the service embeds no files", loc.name)
		}
		locs = append(locs, loc)
	}
	return locs, nil
}

// resolved is what the locations hold.
type resolved struct {
	migrations []migration // versioned by version, then repeatable by description
	ignored    []string    // .sql files whose names are not migrations', which Flyway ignores too
	missing    []string    // locations that do not exist, which Flyway warns about
}

// resolve reads the migrations of the locations, as Flyway's scanner and
// SqlMigrationResolver do: every .sql file under each location, in
// subfolders too, named V<version>__<description>.sql or
// R__<description>.sql. A file that is not a migration's is ignored, as
// Flyway does with validateMigrationNaming off, Spring Boot's default;
// one that Flyway would run and this package cannot (a callback, a
// baseline migration, placeholders, a per-script .conf) is refused.
func resolve(locs []location) (resolved, error) {
	var r resolved
	for _, loc := range locs {
		info, err := fs.Stat(loc.fsys, loc.dir)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && !info.IsDir()) {
			r.missing = append(r.missing, loc.name)
			continue
		}
		if err != nil {
			return r, fmt.Errorf("location %s: %w", loc.name, err)
		}
		err = fs.WalkDir(loc.fsys, loc.dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			script := strings.TrimPrefix(p, loc.dir+"/")
			if loc.dir == "." {
				script = p
			}
			file := loc.name + "/" + script
			m, ok, err := parseName(d.Name())
			if err != nil {
				return fmt.Errorf("%s: %w", file, err)
			}
			if !ok {
				if strings.HasSuffix(strings.ToLower(d.Name()), suffix) {
					r.ignored = append(r.ignored, file)
				}
				return nil
			}
			content, err := fs.ReadFile(loc.fsys, p)
			if err != nil {
				return err
			}
			m.script, m.file = script, file
			if m.checksum, err = Checksum(content); err != nil {
				return fmt.Errorf("%s: %w", file, err)
			}
			content = bytes.TrimPrefix(content, bom)
			if i := bytes.Index(content, []byte("${")); i >= 0 {
				line := bytes.Count(content[:i], []byte("\n")) + 1
				return fmt.Errorf("%s, line %d: Flyway would replace a placeholder ${…} here (placeholder replacement is on by default), which this package does not; write the value, or $ and { apart", file, line)
			}
			m.sql = string(content)
			r.migrations = append(r.migrations, m)
			return nil
		})
		if err != nil {
			return r, fmt.Errorf("reading the migrations: %w", err)
		}
	}
	slices.SortStableFunc(r.migrations, compareMigrations)
	for i := 1; i < len(r.migrations); i++ {
		a, b := r.migrations[i-1], r.migrations[i]
		if compareMigrations(a, b) != 0 {
			continue
		}
		if a.version != nil {
			return r, fmt.Errorf("found more than one migration with version %s, as Flyway would refuse:\n-> %s\n-> %s", a.version, a.file, b.file)
		}
		return r, fmt.Errorf("found more than one repeatable migration with description %q, as Flyway would refuse:\n-> %s\n-> %s", a.description, a.file, b.file)
	}
	return r, nil
}

// compareMigrations orders migrations as Flyway's
// ResolvedMigrationComparator: versioned ones by version, then
// repeatable ones by description (Java's String.compareTo, by UTF-16
// code units).
func compareMigrations(a, b migration) int {
	switch {
	case a.version != nil && b.version != nil:
		return a.version.compare(*b.version)
	case a.version != nil:
		return -1
	case b.version != nil:
		return 1
	}
	return compareJava(a.description, b.description)
}

// compareJava compares two strings as Java's String.compareTo does: by
// UTF-16 code units, which orders characters above U+FFFF before
// U+E000–U+FFFF, unlike UTF-8's byte order.
func compareJava(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// parseName reads a file's name as Flyway's ResourceNameParser does. ok
// is false for a name that is not a migration's, which Flyway ignores;
// err refuses one that Flyway would run and this package does not.
func parseName(name string) (m migration, ok bool, err error) {
	if strings.HasSuffix(strings.ToLower(name), suffix+".conf") {
		return m, false, errors.New("a migration's own configuration (.sql.conf), which Flyway reads (executeInTransaction, encoding, placeholderReplacement) and this package does not: remove it")
	}
	// Flyway strips the suffix in any case, and needs a name before it.
	if len(name) <= len(suffix) || !strings.EqualFold(name[len(name)-len(suffix):], suffix) {
		return m, false, nil
	}
	base := name[:len(name)-len(suffix)]
	// The longest prefix first: the callbacks' names, then V, R and B.
	for _, cb := range callbackNames {
		if rest, found := strings.CutPrefix(base, cb); found && (rest == "" || strings.HasPrefix(rest, separator)) {
			return m, false, fmt.Errorf("an SQL callback, which Flyway runs (%s) and this package does not: move it out of the migrations' location", cb)
		}
	}
	var prefix string
	for _, p := range []string{versionedPrefix, repeatablePrefix, baselinePrefix} {
		if strings.HasPrefix(base, p) && len(name) > len(p)+len(suffix) {
			prefix = p
			break
		}
	}
	if prefix == "" {
		return m, false, nil
	}
	ver, desc, _ := strings.Cut(base[len(prefix):], separator)
	m.description = strings.ReplaceAll(desc, "_", " ")
	if prefix == repeatablePrefix {
		return m, ver == "", nil
	}
	if ver == "" {
		return m, false, nil
	}
	v, err := parseVersion(ver)
	if err != nil {
		return m, false, nil
	}
	if prefix == baselinePrefix {
		return m, false, errors.New("a baseline migration (B<version>__…), which Flyway runs and this package does not")
	}
	m.version = &v
	return m, true, nil
}
