package datasource

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/outage"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err    error
		outage bool
	}{
		{&pgconn.PgError{Code: "57P01"}, true}, // pg_terminate_backend
		{&pgconn.PgError{Code: "57P02"}, true},
		{&pgconn.PgError{Code: "57P03"}, true},
		{&pgconn.PgError{Code: "53300"}, true},
		{&pgconn.PgError{Code: "08006"}, true},
		{&pgconn.PgError{Code: "57014"}, true},  // statement_timeout
		{&pgconn.PgError{Code: "25006"}, true},  // a write to a standby, or to a primary fenced read-only
		{&pgconn.PgError{Code: "23505"}, false}, // unique_violation: a fault of ours
		{&pgconn.PgError{Code: "P0001"}, false}, // the functions' own exceptions
		{&pgconn.PgError{Code: "28P01"}, false}, // wrong password: configuration
		{&pgconn.PgError{Code: "42P01"}, false},
		{&pgconn.PgError{Code: "40001"}, false}, // serialization_failure: Transact retries it
		{&pgconn.PgError{Code: "40P01"}, false}, // deadlock_detected: likewise
		{fmt.Errorf("reading: %w", io.ErrUnexpectedEOF), true},
		{context.DeadlineExceeded, true},
		{fmt.Errorf("acquiring: %w", context.Canceled), false}, // the caller gave up
		{errors.New("something else"), false},
	}
	for _, tt := range tests {
		err := Classify(tt.err)
		var o *outage.Error
		if got := errors.As(err, &o); got != tt.outage {
			t.Errorf("Classify(%v) is an outage: %v, want %v", tt.err, got, tt.outage)
		}
		if !errors.Is(err, tt.err) {
			t.Errorf("Classify(%v) lost the cause", tt.err)
		}
	}
}

// TestTranslate: what reaches the framework from a route is looked at
// only when pgx made it, so that a deadline or a broken connection of
// another client is not a PostgreSQL outage.
func TestTranslate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		err    error
		outage bool
	}{
		{fmt.Errorf("listing: %w", &pgconn.PgError{Code: "57P01"}), true},
		{&pgconn.PgError{Code: "23505"}, false},
		{context.DeadlineExceeded, false}, // whose deadline?
		{fmt.Errorf("calling the payment service: %w", io.ErrUnexpectedEOF), false},
		{errors.New("something else"), false},
	} {
		_, got := errors.AsType[*outage.Error](Translate(tt.err))
		if got != tt.outage {
			t.Errorf("Translate(%v) is an outage: %v, want %v", tt.err, got, tt.outage)
		}
	}
}

// TestRetryable: a serialization failure and a deadlock, however
// wrapped, and nothing else.
func TestRetryable(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: "40001"}, true},
		{fmt.Errorf("committing: %w", &pgconn.PgError{Code: "40P01"}), true},
		{&pgconn.PgError{Code: "23505"}, false},
		{&pgconn.PgError{Code: "57P01"}, false},
		{context.DeadlineExceeded, false},
	} {
		if got := Retryable(tt.err); got != tt.want {
			t.Errorf("Retryable(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

// TestOpenNeverPrintsThePassword opens malformed and unreachable URLs
// that carry a password, in the shapes that defeat pgx's best-effort
// redaction, and checks that the error shows no part of it.
func TestOpenNeverPrintsThePassword(t *testing.T) {
	t.Parallel()
	const pw = "Sup3rS3cret"
	tests := []struct {
		url      string
		password string // Options.Password
	}{
		{"postgres://app:" + pw + "@127.0.0.1:1/db", ""},
		{"postgres://app:" + pw + "@127.0.0.1:notaport/db", ""},
		{"postgres://app:" + pw + "/x@127.0.0.1:1/db", ""},              // a '/' makes the URL's host "app"
		{"postgres://app:" + pw + "@@127.0.0.1:1/db", ""},               // two '@'
		{"postgres://app:" + pw + " and more@127.0.0.1:1/db", ""},       // a space
		{"postgres://app:" + url.QueryEscape(pw+"?#") + "@[::1/db", ""}, // a broken IPv6 literal
		{"postgres://app:" + pw + "@127.0.0.1:1/db?sslmode=bogus", ""},
		{"postgresql://app:" + pw + "@127.0.0.1:1/db?connect_timeout=x", ""},
		{"host=127.0.0.1 port=1 user=app password=" + pw + " sslmode=bogus", ""},
		{"host=127.0.0.1 port=1 user=app password='" + pw + " x' dbname=db", ""},
		{"postgres://app@127.0.0.1:1/db", pw},
		{"postgres://app:%zz" + pw + "@127.0.0.1:1/db", ""}, // a bad escape
		{"postgres://app:" + pw, ""},                        // no host at all
	}
	for _, tt := range tests {
		_, err := Open(t.Context(), Options{URL: tt.url, Password: tt.password, ConnectionTimeout: time.Second})
		if err == nil {
			t.Errorf("Open(%q) succeeded", tt.url)
			continue
		}
		msg := err.Error()
		t.Logf("%s\n\t%s", tt.url, msg)
		for _, part := range []string{pw, pw[:6], pw[5:]} {
			if strings.Contains(msg, part) {
				t.Errorf("Open(%q): the error shows the password:\n%s", tt.url, msg)
				break
			}
		}
		if !strings.Contains(msg, "PostgreSQL") {
			t.Errorf("Open(%q): the error does not say what failed:\n%s", tt.url, msg)
		}
	}
}

// TestOpenMasksByPosition: the password is masked where it stands, with
// config.Mask, never a user or database name that happens to equal it,
// nor with pgx's own mask.
func TestOpenMasksByPosition(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url, username, password string
		want                    []string
	}{
		{"postgres://postgres:postgres@127.0.0.1:1/postgres", "", "",
			[]string{"PostgreSQL at 127.0.0.1:1/postgres as postgres", "`user=postgres database=postgres`"}},
		{"postgres://127.0.0.1:1/petclinic", "petclinic", "petclinic",
			[]string{"PostgreSQL at 127.0.0.1:1/petclinic as petclinic", "`user=petclinic database=petclinic`"}},
		{"postgres://app:Sup3rS3cret@127.0.0.1:notaport/db", "", "",
			[]string{"cannot parse `postgres://app:" + config.Mask + "@127.0.0.1:notaport/db`: invalid port"}},
		{"postgres://app:Sup3r S3cret@127.0.0.1:1/db", "", "",
			[]string{"cannot parse `postgres://app:" + config.Mask + "@127.0.0.1:1/db`: failed to parse as URL"}},
	}
	for _, tt := range tests {
		_, err := Open(t.Context(), Options{URL: tt.url, Username: tt.username, Password: tt.password, ConnectionTimeout: time.Second})
		if err == nil {
			t.Fatalf("Open(%q) succeeded", tt.url)
		}
		msg := err.Error()
		for _, want := range tt.want {
			if !strings.Contains(msg, want) {
				t.Errorf("Open(%q): the error lacks %q:\n%s", tt.url, want, msg)
			}
		}
		if strings.Contains(msg, "xxxxx") || strings.Contains(msg, "S3cret") {
			t.Errorf("Open(%q): the error masks with pgx's mask, or shows the password:\n%s", tt.url, msg)
		}
	}
}
