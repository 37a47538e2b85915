package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/datasource"
)

var _ message.Store = (*Messages)(nil)

// Messages is a message.Store kept in PostgreSQL and shared by every DB
// open on the same database. Its methods fail with an *message.IndexError
// for a position out of range, with an error wrapping an *outage.Error
// when the server cannot be reached in time, and otherwise with a plain
// error. The package comment explains how it stays consistent.
type Messages struct {
	pool     *pgxpool.Pool
	timeout  time.Duration  // the pool's query timeout
	limits   message.Limits // Options.Limits
	appends  *appender
	listings chan struct{} // a token for each listing that holds a connection (listing.go)
}

// The statements of the store. Each is one round trip; Append (a batch
// of one, or of several: see batch.go), Replace and Remove call the
// functions that the migrations created. Texts travel as bytea, the bytes
// of the Go string, so that any string is kept as it is, NUL bytes
// included.
const (
	appendOneSQL = `SELECT len, size, admitted FROM greeter_append_message($1, $2, $3)`
	appendSQL    = `SELECT len, size, refused FROM greeter_append_messages($1, $2, $3)`
	replaceSQL   = `SELECT len, size, growth, replaced FROM greeter_replace_message($1, $2, $3)`
	removeSQL    = `SELECT greeter_remove_message($1)`
	usageSQL     = `SELECT n, bytes FROM greeter_message_bounds`

	// getSQL reads the bounds and the message from one snapshot. The
	// message is a subquery rather than a join so that, whatever the
	// statistics say of the bounds table, it is two index lookups made
	// once: the page whose start is the greatest not above the message's
	// position (a backward scan of the index on start), then the row of
	// that page at the message's slot. The CASE keeps base + $1 from
	// being computed (and overflowing) for an index out of range, which
	// then matches no page.
	getSQL = `SELECT b.n, (
	SELECT m.text FROM greeter_messages m
	WHERE (m.page_id, m.slot) = (
		SELECT p.page_id, p.first_slot + (b.base + $1::bigint - p.start) FROM greeter_message_pages p
		WHERE p.start <= CASE WHEN $1::bigint >= 0 AND $1::bigint < b.n THEN b.base + $1::bigint END
		ORDER BY p.start DESC LIMIT 1
	)
)
FROM greeter_message_bounds b`
)

// Append adds m after the last message, in one transaction with the
// other Appends of this process that wait at the same time (batch.go),
// unless the limits refuse it (a *message.LimitError). An error that wraps an *outage.Error, or that of a context that ended
// while its batch was in flight, leaves unknown whether m was stored.
func (s *Messages) Append(ctx context.Context, m message.Message) error {
	return s.appends.append(ctx, m.Text)
}

// Get returns the message at index.
func (s *Messages) Get(ctx context.Context, index int64) (message.Message, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var n int64
	var text []byte // nil for NULL: no row
	if err := s.pool.QueryRow(ctx, getSQL, index).Scan(&n, &text); err != nil {
		return message.Message{}, fmt.Errorf("reading message %d: %w", index, datasource.Classify(err))
	}
	if err := check(index, n); err != nil {
		return message.Message{}, err
	}
	if text == nil {
		return message.Message{}, fmt.Errorf("reading message %d: greeter_messages has no row for it although it holds %d messages", index, n)
	}
	return message.Message{Text: string(text)}, nil
}

// Replace sets the text of the message at index to m's text, unless that
// grows the texts past Limits.MaxBytes (a *message.LimitError).
func (s *Messages) Replace(ctx context.Context, index int64, m message.Message) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var u message.Usage
	var growth int64
	var replaced bool
	if err := s.pool.QueryRow(ctx, replaceSQL, index, textBytes(m.Text), s.limits.MaxBytes).Scan(&u.Count, &u.Bytes, &growth, &replaced); err != nil {
		return fmt.Errorf("replacing message %d: %w", index, datasource.Classify(err))
	}
	if err := check(index, u.Count); err != nil {
		return err
	}
	if !replaced {
		return refusal(s.limits, u, 0, growth)
	}
	return nil
}

// Remove deletes the message at index; the messages after it move up.
func (s *Messages) Remove(ctx context.Context, index int64) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var n int64
	if err := s.pool.QueryRow(ctx, removeSQL, index).Scan(&n); err != nil {
		return fmt.Errorf("removing message %d: %w", index, datasource.Classify(err))
	}
	return check(index, n)
}

// Usage returns what the collection holds, from the bounds row, which
// every change keeps up to date.
func (s *Messages) Usage(ctx context.Context) (message.Usage, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var u message.Usage
	if err := s.pool.QueryRow(ctx, usageSQL).Scan(&u.Count, &u.Bytes); err != nil {
		return message.Usage{}, fmt.Errorf("reading the usage: %w", datasource.Classify(err))
	}
	return u, nil
}

// check returns the IndexError for an index out of range of a collection
// of n messages.
func check(index, n int64) error {
	if index < 0 || index >= n {
		return &message.IndexError{Index: index, Len: int(n)}
	}
	return nil
}

// refusal returns the *message.LimitError of a change of count messages
// and growth bytes that the database refused when the collection held u.
// The functions apply the rule of Limits.Admits, so it finds the bound
// that was met; an error of its own says so should they ever disagree.
func refusal(l message.Limits, u message.Usage, count, growth int64) error {
	if err := l.Admits(u, count, growth); err != nil {
		return err
	}
	return fmt.Errorf("the database refused a change of %d messages and %d bytes that %+v admit at %+v", count, growth, l, u)
}

// textBytes returns text as a bytea parameter. It is never nil, which pgx
// would send as NULL: the empty text is an empty bytea.
func textBytes(text string) []byte {
	if text == "" {
		return []byte{}
	}
	return []byte(text)
}
