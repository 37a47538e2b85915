package postgres

import (
	"context"
	"errors"
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

// dependency names PostgreSQL in outage errors, as an operator would.
const dependency = "PostgreSQL"

// classify wraps err in an *outage.Error when it means that the server
// could not be reached or did not answer in time, and returns it as it is
// otherwise.
func classify(err error) error {
	if err == nil || !unavailable(err) {
		return err
	}
	return &outage.Error{Dependency: dependency, Err: err}
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
			pgErr.Code == "57014": // query_canceled: statement_timeout, the operation's bound
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
	err     error
	secrets []string
}

func (e *redactedError) Error() string {
	s := e.err.Error()
	for _, secret := range e.secrets {
		s = strings.ReplaceAll(s, secret, "xxxxx")
	}
	return s
}

func (e *redactedError) Unwrap() error { return e.err }

// redact masks every secret in err's text. pgx masks passwords in the
// errors it makes from connection strings only on a best-effort basis (a
// malformed URL can quote them), so Open masks whatever might be one.
func redact(err error, secrets []string) error {
	if len(secrets) == 0 {
		return err
	}
	return &redactedError{err: err, secrets: secrets}
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
