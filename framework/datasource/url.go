package datasource

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// A Spring user names the database in the forms Spring's drivers take:
// a JDBC URL (spring.datasource.url=jdbc:postgresql://db:5432/shop?user=app)
// or, for a reactive application, an R2DBC URL
// (spring.r2dbc.url=r2dbc:postgresql://app@db:5432/shop). URL and
// R2DBCURL read them as the postgres:// URL that pgx takes: the same hosts
// (several, for a fail-over list), database and credentials, with the
// drivers' parameters that have an equivalent in libpq's names
// (ApplicationName is application_name). A parameter without one is
// refused rather than dropped, and a URL of another database is refused
// naming it. The errors never quote the URL, which may hold a password.

// URL reads app.datasource.url: a postgres:// or postgresql://
// URL as it is, or a JDBC URL of PostgreSQL (jdbc:postgresql://host:port/db,
// jdbc:postgresql:db for one on localhost). The empty string is unset.
func URL(s string) (string, error) {
	lower := strings.ToLower(s)
	switch {
	case s == "":
		return "", nil
	case strings.HasPrefix(lower, "postgres://"), strings.HasPrefix(lower, "postgresql://"):
		return s, nil
	case strings.HasPrefix(lower, "jdbc:postgresql:"):
		rest := s[len("jdbc:postgresql:"):]
		if !strings.HasPrefix(rest, "//") {
			// jdbc:postgresql:shop and jdbc:postgresql:/ name a
			// database on localhost, as pgjdbc reads them.
			rest = "//localhost:5432/" + strings.TrimPrefix(rest, "/")
		}
		return translate(rest, jdbcParameters, "JDBC")
	case strings.HasPrefix(lower, "jdbc:"):
		return "", fmt.Errorf("a JDBC URL of %s; only PostgreSQL is supported: jdbc:postgresql://host:port/database, or postgres://host:port/database", driverName(lower[len("jdbc:"):]))
	}
	return "", errors.New("want a PostgreSQL URL: postgres://host:port/database, or jdbc:postgresql://host:port/database")
}

// R2DBCURL reads app.r2dbc.url: an R2DBC URL of PostgreSQL
// (r2dbc:postgresql://user@host:port/db, r2dbc:pool:postgresql://... as
// r2dbc-pool wraps it). The empty string is unset.
func R2DBCURL(s string) (string, error) {
	lower := strings.ToLower(s)
	if s == "" {
		return "", nil
	}
	rest, ok := strings.CutPrefix(lower, "r2dbc:")
	if !ok {
		return "", errors.New("want an R2DBC URL of PostgreSQL: r2dbc:postgresql://host:port/database")
	}
	rest = strings.TrimPrefix(rest, "pool:")
	for _, driver := range []string{"postgresql:", "postgres:"} {
		if strings.HasPrefix(rest, driver+"//") {
			return translate(s[len(s)-len(rest)+len(driver):], r2dbcParameters, "R2DBC")
		}
	}
	return "", fmt.Errorf("an R2DBC URL of %s; only PostgreSQL is supported: r2dbc:postgresql://host:port/database", driverName(rest))
}

// driverName is the driver that a JDBC or R2DBC URL names, up to its
// next ':' (mysql, h2, sqlserver): never more, since the rest may hold a
// password.
func driverName(rest string) string {
	name, _, _ := strings.Cut(rest, ":")
	if name == "" || len(name) > 20 || strings.ContainsAny(name, "/@?&;=") {
		return "another database"
	}
	return name
}

// A parameter is a driver's URL parameter with an equivalent in libpq's
// names, which pgx takes.
type parameter struct {
	spelled string // as the driver's documentation spells it
	name    string // libpq's
	// value turns the driver's value into libpq's; nil keeps it.
	value func(string) (string, bool)
}

// jdbcParameters are pgjdbc's parameters that pgx has an equivalent for,
// by their names in lower case. user and password go in the URL's
// user-info.
var jdbcParameters = map[string]parameter{
	"sslmode":          {"sslmode", "sslmode", nil},
	"sslcert":          {"sslcert", "sslcert", nil},
	"sslkey":           {"sslkey", "sslkey", nil},
	"sslrootcert":      {"sslrootcert", "sslrootcert", nil},
	"sslpassword":      {"sslpassword", "sslpassword", nil},
	"applicationname":  {"ApplicationName", "application_name", nil},
	"currentschema":    {"currentSchema", "search_path", nil},
	"options":          {"options", "options", nil},
	"ssl":              {"ssl", "sslmode", jdbcSSL},
	"targetservertype": {"targetServerType", "target_session_attrs", targetServerType},
}

// r2dbcParameters are r2dbc-postgresql's, as jdbcParameters.
var r2dbcParameters = map[string]parameter{
	"sslmode":         {"sslMode", "sslmode", r2dbcSSLMode},
	"sslcert":         {"sslCert", "sslcert", nil},
	"sslkey":          {"sslKey", "sslkey", nil},
	"sslrootcert":     {"sslRootCert", "sslrootcert", nil},
	"sslpassword":     {"sslPassword", "sslpassword", nil},
	"applicationname": {"applicationName", "application_name", nil},
	"schema":          {"schema", "search_path", nil},
}

// jdbcSSL reads pgjdbc's ssl=true, which verifies the server's
// certificate and host name (libpq's verify-full), and ssl=false.
func jdbcSSL(v string) (string, bool) {
	switch strings.ToLower(v) {
	case "true", "":
		return "verify-full", true
	case "false":
		return "disable", true
	}
	return "", false
}

// targetServerType reads pgjdbc's targetServerType. pgjdbc takes a
// server for a primary when it is not in hot standby and its
// transaction_read_only is off, which is libpq's read-write: a primary
// made read-only (default_transaction_read_only, as a switchover fences
// it) is not one, where libpq's primary would still take it; and for a
// secondary, one that is not a primary in that sense, libpq's read-only.
func targetServerType(v string) (string, bool) {
	switch strings.ToLower(v) {
	case "any":
		return "any", true
	case "primary", "master":
		return "read-write", true
	case "secondary", "slave":
		return "read-only", true
	case "prefersecondary", "preferslave":
		return "prefer-standby", true
	}
	return "", false
}

// r2dbcSSLMode reads r2dbc-postgresql's sslMode, an enum (VERIFY_FULL).
func r2dbcSSLMode(v string) (string, bool) {
	mode := strings.ReplaceAll(strings.ToLower(v), "_", "-")
	ok := slices.Contains([]string{"disable", "allow", "prefer", "require", "verify-ca", "verify-full"}, mode)
	return mode, ok
}

// translate turns rest, a driver's URL from its "//" on, into a
// postgresql:// URL: its user and password parameters move into the
// user-info, where pgx and the masking of secrets look for them, and its
// other parameters are renamed by known. kind names the driver's URLs in
// errors.
func translate(rest string, known map[string]parameter, kind string) (string, error) {
	hostsPath, query, _ := strings.Cut(rest, "?")
	var user, password *string
	var params []string
	var ssl string
	hasSSLMode := false
	for _, p := range strings.Split(query, "&") {
		if p == "" {
			continue
		}
		name, value, _ := strings.Cut(p, "=")
		unescaped, err := url.QueryUnescape(value)
		if err != nil {
			return "", fmt.Errorf("the %s URL's parameter %s is not URL-encoded", kind, name)
		}
		switch lower := strings.ToLower(name); lower {
		case "user":
			user = &unescaped
			continue
		case "password":
			password = &unescaped
			continue
		}
		param, ok := known[strings.ToLower(name)]
		if !ok {
			return "", fmt.Errorf("the %s URL's parameter %s has no equivalent here; those that do: user, password, %s", kind, name, strings.Join(parameterNames(known), ", "))
		}
		if param.value != nil {
			v, ok := param.value(unescaped)
			if !ok {
				return "", fmt.Errorf("the %s URL's parameter %s has a value that has no equivalent here", kind, name)
			}
			value = url.QueryEscape(v)
		}
		if lower := strings.ToLower(name); lower == "ssl" {
			ssl = value // pgjdbc's sslmode wins over it, wherever it is
			continue
		}
		params = append(params, param.name+"="+value)
		hasSSLMode = hasSSLMode || param.name == "sslmode"
	}
	if ssl != "" && !hasSSLMode {
		params = append(params, "sslmode="+ssl)
	}
	authority := strings.TrimPrefix(hostsPath, "//")
	if user != nil || password != nil {
		if strings.Contains(authority, "@") {
			return "", fmt.Errorf("the %s URL names its user both before the host and as a parameter; name it once", kind)
		}
		info := url.User(deref(user))
		if password != nil {
			info = url.UserPassword(deref(user), *password)
		}
		authority = info.String() + "@" + authority
	}
	out := "postgresql://" + authority
	if len(params) > 0 {
		out += "?" + strings.Join(params, "&")
	}
	return out, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// parameterNames are the names of known as a driver's documentation
// spells them, sorted.
func parameterNames(known map[string]parameter) []string {
	names := make([]string, 0, len(known))
	for _, p := range known {
		names = append(names, p.spelled)
	}
	slices.Sort(names)
	return names
}
