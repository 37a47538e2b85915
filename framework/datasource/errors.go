package datasource

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/outage"
)

// Dependency names PostgreSQL in outage errors, as an operator would:
// the 503's detail says "PostgreSQL is unavailable".
const Dependency = "PostgreSQL"

// Classify is the outage rule: it wraps err in an *outage.Error when err
// means that the server could not be reached or did not answer in time,
// which the framework answers with a 503, and returns it as it is
// otherwise, which is a 500 unless the service's Classify says more. A
// store that calls pgx itself passes pgx's errors through it; the Pool's
// own methods do.
//
// A 503 (the request may succeed later, with nothing changed):
//
//   - the connection could not be made, was refused or cut, or broke
//     mid-statement (a *pgconn.ConnectError, a net.Error, io.EOF, a
//     closed connection), SQLSTATE class 08;
//   - the server is shutting down or starting (57P01 admin_shutdown, as
//     pg_terminate_backend or a fast shutdown sends it; 57P02
//     crash_shutdown; 57P03 cannot_connect_now), full (53300
//     too_many_connections), or takes no writes (25006
//     read_only_sql_transaction: a standby, or a primary fenced for a
//     switchover, which another server may take over);
//   - a deadline passed: the caller's, the pool's connection timeout, or
//     the server's statement_timeout (57014 query_canceled).
//
// Anything else the server says is a fault to be fixed, not waited out,
// and a 500: a constraint violated (class 23), a syntax error, a missing
// table, a refused password (28P01), and a serialization failure (40001)
// or a deadlock (40P01) that outlived Transact's retries, as Spring
// translates them to transient exceptions that Spring MVC answers 500.
// A caller that gave up (context.Canceled) is not an outage either:
// nothing is known about the server.
func Classify(err error) error {
	if err == nil || !unavailable(err) {
		return err
	}
	if _, ok := errors.AsType[*outage.Error](err); ok {
		return err
	}
	return &outage.Error{Dependency: Dependency, Err: err}
}

// Translate is Classify for the errors that reach the framework from a
// route: only an error that pgx made (the server's *pgconn.PgError, a
// *pgconn.ConnectError, or one of pgconn's own, which say whether they
// are safe to retry) is looked at, so that a deadline or a broken
// connection of another client is not taken for PostgreSQL's. The
// datasource starter gives it to boot, so that a route that returns
// pgx's error as it is (a connection cut by an administrator) is a 503
// without the service classifying it.
func Translate(err error) error {
	if !fromPgx(err) {
		return err
	}
	return Classify(err)
}

// fromPgx reports whether pgx made err.
func fromPgx(err error) bool {
	if _, ok := errors.AsType[*pgconn.PgError](err); ok {
		return true
	}
	if _, ok := errors.AsType[*pgconn.ConnectError](err); ok {
		return true
	}
	var own interface{ SafeToRetry() bool }
	return errors.As(err, &own)
}

// Retryable reports whether err is a serialization failure (40001) or a
// deadlock (40P01): the server rolled the transaction back, and running
// it again from its start may succeed. Transact retries them.
func Retryable(err error) bool {
	pgErr, ok := errors.AsType[*pgconn.PgError](err)
	return ok && (pgErr.Code == "40001" || pgErr.Code == "40P01")
}

// unavailable reports whether err means that the server is out of reach:
// a request made later may succeed without anything being changed.
func unavailable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// An error the server sent: it is up, and says why it will not
		// serve. Only some of its reasons are passing ones.
		switch {
		case strings.HasPrefix(pgErr.Code, "08"): // connection exception
			return true
		case pgErr.Code == "57P01", // admin_shutdown: pg_terminate_backend, a fast shutdown
			pgErr.Code == "57P02", // crash_shutdown
			pgErr.Code == "57P03", // cannot_connect_now: starting up, in recovery
			pgErr.Code == "53300", // too_many_connections
			pgErr.Code == "57014", // query_canceled: statement_timeout, the operation's bound
			pgErr.Code == "25006": // read_only_sql_transaction: a standby, or a primary fenced for a switchover
			return true
		}
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err) {
		return true
	}
	if errors.Is(err, context.Canceled) {
		// The caller gave up: nothing is known about the server.
		return false
	}
	if _, ok := errors.AsType[*outage.Error](err); ok {
		return true
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) ||
		errors.As(err, &netErr) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, pgconn.ErrConnClosed)
}

// redactedError is an error whose text has had secrets masked. It unwraps
// to the original, so that errors.As still finds what it holds.
type redactedError struct {
	err  error
	text string
}

func (e *redactedError) Error() string { return e.text }

func (e *redactedError) Unwrap() error { return e.err }

// redact masks the password in err's text, with config.Mask, by position
// wherever the text's structure says where it is:
//
//   - pgx's ParseConfigError quotes the connection string, masked by pgx
//     on a best-effort basis and with a mask of its own (xxxxx): it is
//     quoted again from the string itself, masked by config.MaskPasswords;
//   - the *url.Error that url.Parse returns quotes the URL whole, password
//     and all: it is quoted with its password masked the same way;
//   - pgx's ConnectError names the user and the database, never the
//     password, and the server's messages do not quote it.
//
// A driver may still print its input back where no structure marks the
// password (a malformed string's fragment): so, last, every text that
// might be the password (see secrets) is masked wherever it stands, as
// only text replacement can, except one that is the user's, the
// database's or the host's name, which the message shows anyway: a
// password that equals the name would otherwise mask the name everywhere
// ("at localhost:5432/xxxxx as xxxxx") and hide nothing.
func redact(err error, connString, username, password string) error {
	text := err.Error()
	var parseErr *pgconn.ParseConfigError
	if errors.As(err, &parseErr) {
		own := parseErr.Error()
		if i := strings.Index(text, own); i >= 0 {
			text = text[:i] + quoteParseError(parseErr, own) + text[i+len(own):]
		}
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		masked := fmt.Sprintf("%s %q: %v", urlErr.Op, config.MaskPasswords(urlErr.URL), urlErr.Err)
		text = strings.ReplaceAll(text, urlErr.Error(), masked)
	}
	return &redactedError{err: err, text: config.MaskQuoted(text, secrets(connString, password), names(connString, username))}
}

// names are the names a connection string gives, which every message
// about it may show: the user (username when set, as Options.Username
// overrides it), the database and the hosts; "" when it does not parse,
// and nothing is known to be a name.
func names(connString, username string) string {
	cfg, err := pgconn.ParseConfig(connString)
	if err != nil {
		return ""
	}
	shown := []string{cfg.User, cfg.Database, cfg.Host, username}
	for _, f := range cfg.Fallbacks {
		shown = append(shown, f.Host)
	}
	return strings.Join(shown, " ")
}

// quoteParseError returns own, the text of e, with the connection string
// it quotes masked by config.MaskPasswords rather than by pgx: the text is
// "cannot parse `<string masked by pgx>`: <why>", and only the quoted
// string is replaced.
func quoteParseError(e *pgconn.ParseConfigError, own string) string {
	const prefix = "cannot parse `"
	rest, ok := strings.CutPrefix(own, prefix)
	if !ok {
		return own
	}
	end := strings.Index(rest, "`: ")
	if end < 0 {
		return own
	}
	return prefix + config.MaskPasswords(e.ConnString) + rest[end:]
}

// kvPassword finds the password of a key=value connection string; it is
// compiled when an error first needs it, not at start-up.
var kvPassword = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`password\s*=\s*('(?:[^'\\]|\\.)*'|\S+)`)
})

// secrets returns the strings that might be the password in a connection
// string, as written and unescaped, longest first (so that a password
// containing another candidate is masked whole), plus the password given
// apart from it.
func secrets(connString, password string) []string {
	var found []string
	add := func(s string) {
		if s != "" {
			found = append(found, s)
			if u, err := url.PathUnescape(s); err == nil && u != s {
				found = append(found, u)
			}
			if e := url.QueryEscape(s); e != s {
				found = append(found, e)
			}
		}
	}
	add(password)
	// A URL's user information runs from the scheme to the last '@', and
	// its password from the first ':' in it; this holds even when the rest
	// of the URL is malformed.
	if _, rest, ok := strings.Cut(connString, "://"); ok {
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			if _, pw, ok := strings.Cut(rest[:at], ":"); ok {
				add(pw)
			}
		} else if _, port, ok := strings.Cut(rest, ":"); ok {
			// No '@': what follows "user:" may be a password of a URL
			// whose host was left out, unless it reads as a port.
			port, _, _ = strings.Cut(port, "/")
			if strings.Trim(port, "0123456789,") != "" {
				add(port)
			}
		}
	}
	if u, err := url.Parse(connString); err == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok {
			add(pw)
		}
	}
	// What the settings reports mask: a query's password or sslpassword,
	// a scheme's typo (postgres//u:pw@db), a quoted DSN value.
	for _, pw := range config.Passwords(connString) {
		add(pw)
	}
	for _, m := range kvPassword().FindAllStringSubmatch(connString, -1) {
		add(m[1])
		add(strings.Trim(m[1], "'"))
	}
	// Longest first, so that a candidate inside another one does not
	// leave the rest of the longer one readable.
	slices.SortStableFunc(found, func(a, b string) int { return len(b) - len(a) })
	return found
}
