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
// Consistency. Appends only add keys after the last, and Replace only
// changes texts, so across them the messages the listing has yet to read
// keep their keys: the listing yields exactly the window as it was at its
// first chunk, in order, nothing lost or doubled, and none of the
// messages appended since (it stops at the count the first chunk saw); a
// message replaced meanwhile shows the text its chunk read. A Remove
// renumbers slots and merges pages, so after one the key read last no
// longer says where to go on: every chunk reads the count of removals
// (kept by migration 00005) in its own snapshot, and a listing that finds
// it changed ends with an error (errRemovedWhileListed) rather than yield
// a list with a message lost or doubled. A window read in one chunk (a
// page of the API, up to chunkRows messages) is always a snapshot.
//
// Each chunk, the first included, is bounded by Options.Timeout: taking
// one of max(1, MaxConns/2) listing slots (so that listings leave
// connections to the other operations), acquiring a connection and
// running the statement. A chunk that finds no slot free within the
// timeout fails with an outage, as one that finds no connection would.

package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/springport/greeter/domain/message"
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

// errRemovedWhileListed ends a listing read in several chunks during which
// a message was removed: see the file comment.
var errRemovedWhileListed = errors.New("a message was removed while the collection was listed, so the rest of the list would not follow on from what was sent; list again")

// List returns a snapshot of at most limit messages from offset on,
// read in chunks as its Messages yields them.
func (s *Messages) List(ctx context.Context, offset, limit int64) (*message.Listing, error) {
	l := &listing{store: s, ctx: ctx}
	lo := max(offset, 0)
	first := int64(chunkRows)
	if limit >= 0 {
		first = min(first, limit)
	}
	total, err := l.read(firstChunkSQL, offset, first)
	if err != nil {
		return nil, fmt.Errorf("listing the messages: %w", err)
	}
	l.total = total
	l.unread = max(total-lo, 0)
	if limit >= 0 {
		l.unread = min(l.unread, limit)
	}
	return &message.Listing{Total: total, Messages: l.messages, Close: func() {}}, nil
}

// listing is what a Listing of the store holds: the chunk read last, and
// where to go on from.
type listing struct {
	store *Messages
	ctx   context.Context // the caller's: it cancels every chunk

	total    int64
	unread   int64 // the messages of the window not yet yielded
	removals int64 // the count of removals the first chunk saw
	chunk    []string
	page     int64 // the key of the last message read
	slot     int64
	started  bool // the first chunk is read
}

// messages yields the window's messages, reading a chunk whenever the
// one in memory is used up.
func (l *listing) messages(yield func(message.Message, error) bool) {
	for l.unread > 0 {
		if len(l.chunk) == 0 {
			if _, err := l.read(nextChunkSQL, l.page, l.slot, min(chunkRows, l.unread)); err != nil {
				yield(message.Message{}, fmt.Errorf("reading the messages: %w", err))
				return
			}
			if len(l.chunk) == 0 {
				yield(message.Message{}, fmt.Errorf("reading the messages: %d of them are missing after key (%d, %d)", l.unread, l.page, l.slot))
				return
			}
		}
		text := l.chunk[0]
		l.chunk[0] = "" // the chunk's memory goes as it is sent
		l.chunk = l.chunk[1:]
		l.unread--
		if !yield(message.Message{Text: text}, nil) {
			return
		}
	}
	l.chunk = nil
}

// read runs one chunk's statement within the timeout, keeps its messages
// in l.chunk and the key of its last, and returns the collection's length
// as the statement saw it. A chunk after the first fails when the count
// of removals has changed since the first.
func (l *listing) read(sql string, args ...any) (total int64, err error) {
	s := l.store
	ctx, cancel := context.WithTimeout(l.ctx, s.timeout)
	defer cancel()
	select {
	case s.listings <- struct{}{}:
		defer func() { <-s.listings }()
	case <-ctx.Done():
		if l.ctx.Err() != nil {
			return 0, classify(context.Cause(l.ctx))
		}
		return 0, &outage.Error{Dependency: dependency, Err: fmt.Errorf(
			"all %d listings that may use a connection at once are busy, and none was free within %v", cap(s.listings), s.timeout)}
	}
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return 0, classify(err)
	}
	defer rows.Close()
	l.chunk = l.chunk[:0]
	var removals int64
	for rows.Next() {
		var page, slot *int64
		var text []byte
		if err := rows.Scan(&total, &removals, &page, &slot, &text); err != nil {
			return 0, classify(err)
		}
		if page == nil {
			continue // the empty chunk's one row
		}
		l.chunk = append(l.chunk, string(text))
		l.page, l.slot = *page, *slot
	}
	if err := rows.Err(); err != nil {
		return 0, classify(err)
	}
	switch {
	case !l.started:
		l.started, l.removals = true, removals
	case removals != l.removals:
		return 0, errRemovedWhileListed
	}
	return total, nil
}
