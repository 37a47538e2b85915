// This file implements List: a window of the collection, streamed from
// one statement.
//
// The statement reads the bounds row and the window's rows, so Total and
// the messages come from one snapshot. It finds the window's first
// message as Get does (the page by a backward scan of the index on start,
// the row by the primary key) and reads on along the primary key, whose
// order is the collection's (page ids increase along it): O(log n + k)
// for k messages, not OFFSET's O(offset + k).
//
// The rows are read from the connection as Messages yields them, so a
// listing holds a few rows in memory however large its window, and holds
// its pooled connection until it is ranged to the end, broken off, or
// closed. Its statement may rightly outlast Options.Timeout when an HTTP
// client reads the response slowly, so the timeout bounds only taking a
// slot, acquiring the connection and receiving the first row (which
// carries Total): a timer cancels the statement until then, and the
// server's statement_timeout is lifted for this one transaction. The
// caller's context still cancels it at any time.
//
// So that slow readers cannot hold every connection and starve the other
// operations, at most max(1, MaxConns/2) listings of a DB hold one at a
// time; a List that finds no slot free within Options.Timeout fails with
// an outage, as one that finds no connection would.

package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/outage"
)

// listSQL returns one row for each message of the window, from offset $1
// (0 when negative), at most $2 of them (all when negative), each with
// the collection's length; for an empty window, one row whose text is
// NULL. The page lookup matches no page for an offset at or past the end,
// so that base + offset is computed only in range, and the rows after
// the first message in key order are exactly the messages after it.
const listSQL = `SELECT b.n, m.text
FROM greeter_message_bounds b
CROSS JOIN LATERAL (SELECT greatest($1::bigint, 0) AS lo) o
LEFT JOIN LATERAL (
	SELECT p.page_id, p.first_slot + (b.base + o.lo - p.start) AS slot FROM greeter_message_pages p
	WHERE p.start <= CASE WHEN o.lo < b.n THEN b.base + o.lo END
	ORDER BY p.start DESC LIMIT 1
) f ON true
LEFT JOIN LATERAL (
	SELECT m.text FROM greeter_messages m
	WHERE (m.page_id, m.slot) >= (f.page_id, f.slot)
	ORDER BY m.page_id, m.slot
	LIMIT CASE WHEN $2::bigint >= 0 THEN $2::bigint END
) m ON true`

// cancelAbove is how many unread messages make closing a listing cancel
// its statement rather than read the rest: a cancel request dials the
// server, which costs about as much as receiving a thousand short rows.
const cancelAbove = 1000

// List returns a snapshot of at most limit messages from offset on, read
// from the database as its Messages yields them.
func (s *Messages) List(ctx context.Context, offset, limit int64) (*message.Listing, error) {
	l, err := s.list(ctx, offset, limit)
	if err != nil {
		return nil, fmt.Errorf("listing the messages: %w", err)
	}
	lo := min(max(offset, 0), l.total)
	l.unread = l.total - lo
	if limit >= 0 {
		l.unread = min(l.unread, limit)
	}
	return &message.Listing{Total: l.total, Messages: l.messages, Close: l.close}, nil
}

// listing is what a Listing of the store holds.
type listing struct {
	total  int64
	first  []byte // the first message's text; nil when the window is empty
	unread int64  // the messages of the window not yet yielded
	done   bool   // the rows were read to their end

	slots  chan struct{} // Messages.listings, to give the slot back
	conn   *pgxpool.Conn
	batch  pgx.BatchResults
	rows   pgx.Rows
	cancel context.CancelFunc // ends the statement's context
	once   sync.Once
}

// list takes a slot and a connection and sends the listing's statement,
// within the timeout, and returns once the first row is in.
func (s *Messages) list(ctx context.Context, offset, limit int64) (*listing, error) {
	wait, cancelWait := context.WithTimeout(ctx, s.timeout)
	defer cancelWait()
	select {
	case s.listings <- struct{}{}:
	case <-wait.Done():
		if ctx.Err() != nil {
			return nil, classify(context.Cause(ctx))
		}
		return nil, &outage.Error{Dependency: dependency, Err: fmt.Errorf(
			"all %d listings that may hold a connection at once are busy, and none ended within %v", cap(s.listings), s.timeout)}
	}
	l := &listing{slots: s.listings}
	conn, err := s.pool.Acquire(wait)
	if err != nil {
		l.close()
		return nil, classify(err)
	}
	l.conn = conn

	// The statement's context is the caller's, without the timeout, which
	// the timer applies until the first row is in.
	var timedOut atomic.Bool
	var queryCtx context.Context
	queryCtx, l.cancel = context.WithCancel(ctx)
	deadline, _ := wait.Deadline()
	timer := time.AfterFunc(time.Until(deadline), func() {
		timedOut.Store(true)
		l.cancel()
	})
	fail := func(err error) (*listing, error) {
		if !timer.Stop() && timedOut.Load() {
			err = fmt.Errorf("no answer within %v: %w (%w)", s.timeout, context.DeadlineExceeded, err)
		}
		l.close()
		return nil, classify(err)
	}

	// One round trip: the transaction only scopes the lifted timeout, and
	// its COMMIT is read when the listing is closed.
	b := &pgx.Batch{}
	b.Queue("BEGIN READ ONLY")
	b.Queue("SET LOCAL statement_timeout = 0")
	b.Queue(listSQL, offset, limit)
	b.Queue("COMMIT")
	l.batch = conn.SendBatch(queryCtx, b)
	for range 2 {
		if _, err := l.batch.Exec(); err != nil {
			return fail(err)
		}
	}
	l.rows, _ = l.batch.Query() // an error comes out of rows.Err
	if !l.rows.Next() {
		if err := l.rows.Err(); err != nil {
			return fail(err)
		}
		return fail(errors.New("the listing's statement returned no row"))
	}
	if err := l.rows.Scan(&l.total, &l.first); err != nil {
		return fail(err)
	}
	if !timer.Stop() {
		return fail(errors.New("the first row came as the timeout passed"))
	}
	return l, nil
}

// messages yields the window's messages as they are read, then closes
// the listing, whether it was ranged to the end or broken off.
func (l *listing) messages(yield func(message.Message, error) bool) {
	defer l.close()
	if l.first == nil || l.rows == nil {
		return
	}
	text := l.first
	l.first = nil // ranging again yields nothing, as the rows are gone
	for {
		l.unread--
		if !yield(message.Message{Text: string(text)}, nil) {
			return
		}
		if !l.rows.Next() {
			break
		}
		if err := l.rows.Scan(nil, &text); err != nil {
			yield(message.Message{}, fmt.Errorf("reading the messages: %w", classify(err)))
			return
		}
	}
	l.done = true
	if err := errors.Join(l.rows.Err(), l.closeErr()); err != nil {
		yield(message.Message{}, fmt.Errorf("reading the messages: %w", classify(err)))
	}
}

// close releases the connection and the slot; it may be called more than
// once.
func (l *listing) close() { _ = l.closeErr() }

// closeErr is close, with the error of the statement's end, if any. A
// listing left with many rows unread cancels its statement first; the
// rows already sent are then read and dropped. A connection left in a
// transaction or broken is not reused: the pool closes it.
func (l *listing) closeErr() error {
	var err error
	l.once.Do(func() {
		l.first = nil
		if l.batch != nil {
			if !l.done && l.unread > cancelAbove {
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				_ = l.conn.Conn().PgConn().CancelRequest(ctx) // at worst, the rest is read
				cancel()
			}
			if l.rows != nil {
				l.rows.Close()
			}
			err = l.batch.Close()
			if !l.done {
				err = nil // a statement cut short may well end in an error
			}
		}
		if l.cancel != nil {
			l.cancel()
		}
		if l.conn != nil {
			l.conn.Release()
		}
		<-l.slots
	})
	return err
}
