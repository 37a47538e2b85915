// This file implements List: a window of the collection, read in chunks.
//
// Each chunk is one short statement on a pooled connection, which goes
// back to the pool as soon as the chunk's rows are in memory: a client
// that reads its response slowly holds no connection while it reads, only
// the chunk it has not yet been sent. A chunk holds at most chunkRows
// messages and, past its first, no more than chunkBytes of text, so a
// listing's memory is bounded however large its window.
//
// The first chunk's statement reads the bounds row with the rows, so
// Total and those messages come from one snapshot. It finds the window's
// first message as Get does (the page by a backward scan of the index on
// start, the row by the primary key) and reads on along the primary key,
// (page_id, slot), whose order is the collection's (page ids increase
// along it): O(log n + k) for k messages, not OFFSET's O(offset + k).
// Each later chunk continues after the key of the last message read
// (keyset pagination): O(log n + k) again, wherever it starts.
//
// Consistency: a listing yields the window as it was at its first chunk,
// in order, less the messages removed before their chunk was read, each
// with its text as its chunk read it; nothing is yielded twice, nothing
// appended since is yielded, and no message of the window that is still
// there is skipped. Appends only add keys after the last, and Replace only changes
// texts, so across them the messages yet to be read keep their keys. A
// Remove renumbers slots, merges pages and shifts indexes, so after one
// the key read last no longer says where to go on: every chunk reads the
// count of removals in its own snapshot, and one that finds it changed
// reads the log of removals (migration 00005) in the same snapshot as its
// rows, works out from each removal's index where the next message to send
// and the end of the window now are, and reads on from there by index (as
// the first chunk does). The log keeps the last 10,000 removals; a listing
// that falls further behind ends with an error (errRemovedWhileListed)
// rather than guess.
//
// Each chunk, the first included, is bounded by the query timeout: taking
// one of max(1, MaxConns/2) listing slots (so that listings leave
// connections to the other operations), acquiring a connection and
// running the statement. A chunk that finds no slot free within the
// timeout fails with an outage, as one that finds no connection would.

package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/outage"
)

// A chunk's bounds: at most chunkRows messages, and past the first no
// more than chunkBytes of text. A chunk is one short statement; these
// keep the statements few for a long listing and its memory small.
const (
	chunkRows  = 1000
	chunkBytes = 256 << 10
)

// chunkOf is the query that reads one chunk from the messages matched by
// $where, in key order: at most $limit of them (the LIMIT parameter) and,
// past the first, at most chunkBytes of text (the text before a row must
// be below chunkBytes). The running sum is taken over the limited rows
// only.
func chunkOf(where, limit string) string {
	return fmt.Sprintf(`SELECT c.page_id, c.slot, c.text FROM (
		SELECT r.page_id, r.slot, r.text,
			sum(octet_length(r.text)) OVER (ORDER BY r.page_id, r.slot) - octet_length(r.text) AS before
		FROM (SELECT m.page_id, m.slot, m.text FROM greeter_messages m
			WHERE %s ORDER BY m.page_id, m.slot LIMIT %s) r
	) c WHERE c.before < %d`, where, limit, chunkBytes)
}

// firstChunkSQL returns, for the window from offset $1 (0 when negative),
// the collection's length and count of removals, and the first chunk of
// the window's messages, at most $2 of them, each with its key; when the
// chunk is empty, one row with NULL key and text. The page lookup matches
// no page for an offset at or past the end, so that base + offset is
// computed only in range.
var firstChunkSQL = `SELECT b.n, b.removals, m.page_id, m.slot, m.text
FROM greeter_message_bounds b
CROSS JOIN LATERAL (SELECT greatest($1::bigint, 0) AS lo) o
LEFT JOIN LATERAL (
	SELECT p.page_id, p.first_slot + (b.base + o.lo - p.start) AS slot FROM greeter_message_pages p
	WHERE p.start <= CASE WHEN o.lo < b.n THEN b.base + o.lo END
	ORDER BY p.start DESC LIMIT 1
) f ON true
LEFT JOIN LATERAL (` + chunkOf("(m.page_id, m.slot) >= (f.page_id, f.slot)", "$2::bigint") + `) m ON true
ORDER BY m.page_id, m.slot`

// nextChunkSQL returns the count of removals and the messages after key
// ($1, $2), at most $3 of them, as firstChunkSQL does.
var nextChunkSQL = `SELECT b.n, b.removals, m.page_id, m.slot, m.text
FROM greeter_message_bounds b
LEFT JOIN LATERAL (` + chunkOf("(m.page_id, m.slot) > ($1::bigint, $2::bigint)", "$3::bigint") + `) m ON true
ORDER BY m.page_id, m.slot`

// removalsSinceSQL returns the removals logged after $1, in the order
// they were made.
const removalsSinceSQL = `SELECT removal, message_index FROM greeter_message_removals WHERE removal > $1 ORDER BY removal`

// errRemovedWhileListed ends a listing that more removals were made
// during than the log keeps: see the file comment.
var errRemovedWhileListed = errors.New("more messages were removed while the collection was listed than the log of removals keeps, so where the list goes on is not known; list again")

// List returns a snapshot of at most limit messages from offset on,
// read in chunks as its Messages yields them.
func (s *Messages) List(ctx context.Context, offset, limit int64) (*message.Listing, error) {
	l := &listing{store: s, ctx: ctx}
	lo := max(offset, 0)
	first := int64(chunkRows)
	if limit >= 0 {
		first = min(first, limit)
	}
	var total int64
	err := l.inSlot(func(ctx context.Context) error {
		var err error
		total, err = l.read(ctx, s.pool, firstChunkSQL, offset, first)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing the messages: %w", err)
	}
	l.next = min(lo, total) + int64(len(l.chunk))
	l.end = total
	if limit >= 0 {
		l.end = min(total, lo+limit)
	}
	l.end = max(l.end, l.next)
	return &message.Listing{Total: total, Messages: l.messages, Close: func() {}}, nil
}

// listing is what a Listing of the store holds: the chunk read last, and
// where to go on from.
type listing struct {
	store *Messages
	ctx   context.Context // the caller's: it cancels every chunk

	chunk    []string // read, not yet yielded
	next     int64    // the index of the message after the chunk, as the collection is now
	end      int64    // the index after the window's last message, likewise
	removals int64    // the count of removals when the chunk was read
	page     int64    // the key of the chunk's last message
	slot     int64
}

// messages yields the window's messages, reading a chunk whenever the
// one in memory is used up.
func (l *listing) messages(yield func(message.Message, error) bool) {
	for len(l.chunk) > 0 || l.next < l.end {
		if len(l.chunk) == 0 {
			if err := l.inSlot(l.readNext); err != nil {
				yield(message.Message{}, fmt.Errorf("reading the messages: %w", err))
				return
			}
			if len(l.chunk) == 0 {
				break // the rest of the window was removed
			}
		}
		text := l.chunk[0]
		l.chunk[0] = "" // the chunk's memory goes as it is sent
		l.chunk = l.chunk[1:]
		if !yield(message.Message{Text: text}, nil) {
			return
		}
	}
	l.chunk = nil
}

// readNext reads the chunk that follows the last: after its key when no
// message was removed since, and otherwise from the index that the log
// of removals says the next message now has, in one snapshot with the log.
func (l *listing) readNext(ctx context.Context) error {
	s := l.store
	rows := min(chunkRows, l.end-l.next)
	before := l.removals
	if _, err := l.read(ctx, s.pool, nextChunkSQL, l.page, l.slot, rows); err != nil {
		return err
	}
	if l.removals == before {
		l.next += int64(len(l.chunk))
		return nil
	}
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return datasource.Classify(err)
	}
	defer tx.Rollback(context.Background()) // read only: nothing to commit
	log, err := tx.Query(ctx, removalsSinceSQL, before)
	if err != nil {
		return datasource.Classify(err)
	}
	want := before + 1
	for log.Next() {
		var removal, index int64
		if err := log.Scan(&removal, &index); err != nil {
			log.Close()
			return datasource.Classify(err)
		}
		if removal != want {
			log.Close()
			return errRemovedWhileListed
		}
		want++
		switch {
		case index < l.next:
			l.next--
			l.end--
		case index < l.end:
			l.end--
		}
	}
	log.Close()
	if err := log.Err(); err != nil {
		return datasource.Classify(err)
	}
	if want == before+1 {
		return errRemovedWhileListed // counted, yet not logged
	}
	if l.next >= l.end {
		l.chunk = l.chunk[:0]
		return nil
	}
	if _, err := l.read(ctx, tx, firstChunkSQL, l.next, min(chunkRows, l.end-l.next)); err != nil {
		return err
	}
	if l.removals != want-1 {
		return errRemovedWhileListed // cannot be: one snapshot
	}
	if len(l.chunk) == 0 {
		return fmt.Errorf("%d messages are missing from index %d on", l.end-l.next, l.next)
	}
	l.next += int64(len(l.chunk))
	return nil
}

// inSlot runs read within the timeout, once it has one of the listing
// slots, which it gives back after.
func (l *listing) inSlot(read func(ctx context.Context) error) error {
	s := l.store
	ctx, cancel := context.WithTimeout(l.ctx, s.timeout)
	defer cancel()
	select {
	case s.listings <- struct{}{}:
		defer func() { <-s.listings }()
	case <-ctx.Done():
		if l.ctx.Err() != nil {
			return datasource.Classify(context.Cause(l.ctx))
		}
		return &outage.Error{Dependency: datasource.Dependency, Err: fmt.Errorf(
			"all %d listings that may use a connection at once are busy, and none was free within %v", cap(s.listings), s.timeout)}
	}
	return read(ctx)
}

// querier is a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// read runs one chunk's statement, keeps its messages in l.chunk, the key
// of its last and the count of removals, and returns the collection's
// length as the statement saw it.
func (l *listing) read(ctx context.Context, q querier, sql string, args ...any) (total int64, err error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return 0, datasource.Classify(err)
	}
	defer rows.Close()
	l.chunk = l.chunk[:0]
	for rows.Next() {
		var page, slot *int64
		var text []byte
		if err := rows.Scan(&total, &l.removals, &page, &slot, &text); err != nil {
			return 0, datasource.Classify(err)
		}
		if page == nil {
			continue // the empty chunk's one row
		}
		l.chunk = append(l.chunk, string(text))
		l.page, l.slot = *page, *slot
	}
	if err := rows.Err(); err != nil {
		return 0, datasource.Classify(err)
	}
	return total, nil
}
