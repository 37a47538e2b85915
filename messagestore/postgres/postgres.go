// Package postgres keeps the service's messages in PostgreSQL, so that
// several instances of the service share one collection. It implements
// message.Store with the same semantics as inmem.Messages, whatever the
// number of instances writing at once.
//
// The connection pool is the framework's (framework/datasource): greeter
// names the datasource starter, which opens it from app.datasource.*,
// with Configure and Migrate, and New builds the store on it. Open opens
// a pool of its own, for tests and tools that run the store without a
// service. What is greeter's is here: the schema and its migrations, the
// SQL, the group commit of appends, and the listings.
//
// # Layout
//
// Message i of n is at position base + i; base and n live in the single
// row of greeter_message_bounds, with bytes, the texts' lengths summed.
// The messages are cut into pages of at
// most page_size (1024, a column of the same row) consecutive positions:
// a row of greeter_message_pages gives a page's start, the position of its
// first message, and its first_slot, and message i is the row of
// greeter_messages at (page_id, first_slot + base + i - start) of the page
// whose start is the greatest not above base + i. Slots are dense within
// a page, and a page's length is where the next one starts.
//
// Get and Replace find a message by two index lookups, a backward scan of
// the index on start for its page and the primary key for its row, so
// they cost O(log n) at any index, rather than counting rows (OFFSET),
// which costs O(i). Remove must renumber, and closes the gap from its
// shorter side on two levels: within the page, the slots before the
// message move one on or those after it one back; among the pages, the
// starts of those before it move one on (and base with them) or those
// after it one back. Removing the first or the last message moves
// nothing; anywhere else a Remove moves at most half a page of slots and
// the starts of about half the pages, O(page_size + n/page_size), which is
// O(sqrt(n)) for the n (about a million) that page_size suits. Version 1
// of the schema numbered messages by position alone, which made Get as
// cheap but moved up to n/2 rows on a Remove: seconds at a million
// messages, near the operation timeout.
//
// Remove also merges a page into its neighbour when the two hold
// page_size messages or fewer (moving at most page_size - 1 rows), so
// that there are at most 2n/page_size + 1 pages however the removals fall;
// an Append fills the last page or opens a new one. Page ids increase
// along the collection, so List reads the primary key in order from the
// window's first message, found as Get finds one: O(log n + k) for a
// window of k messages at any offset. The unique
// constraints on start and on (page_id, slot) are DEFERRABLE INITIALLY
// DEFERRED, checked at commit, so that each move is a single UPDATE whose
// intermediate states may collide.
//
// Every row a Remove moves leaves a dead version behind, up to about
// page_size + n/page_size of them a call; autovacuum reclaims them, and
// until it does, lookups step over them (600 middle removals in a row at a
// million messages make Get about 1.5 times slower).
//
// Texts are stored as bytea, the bytes of the Go string, so that any text
// the in-memory store keeps is kept here too: a text column cannot hold a
// NUL byte or bytes that are not UTF-8.
//
// # Concurrency
//
// Every statement runs in READ COMMITTED (set on each connection), and the
// bounds row is the point where writers meet:
//
//   - Append goes in a batch with the other Appends of its process
//     (greeter_append_messages, or greeter_append_message for a batch of
//     one), which increments n by the batch's size, locking the bounds row
//     (FOR NO KEY UPDATE) until it commits, then fills the last page and
//     opens new ones, in statements of its own that see everything
//     committed before the lock was granted. Batches therefore queue
//     behind each other, from any instance, and behind a Remove; each sees
//     the bounds and pages left by the one before it, and puts its
//     messages at consecutive positions, in the order their Appends
//     arrived.
//   - Remove (greeter_remove_message) holds the collection's advisory
//     lock exclusively, which keeps Replaces out, then locks the bounds
//     row FOR UPDATE, which waits for Appends; then it deletes,
//     renumbers, merges and updates the bounds, each in a statement of its
//     own that sees everything committed before the locks were granted.
//   - Replace (greeter_replace_message) holds the advisory lock shared,
//     which conflicts with Remove only, then reads the bounds and updates
//     the message's row in later statements. The lock is what makes it
//     safe: in READ COMMITTED an UPDATE that waits for a row being
//     renumbered rechecks only that row, and would miss the row that a
//     concurrent Remove moved to the slot it looks for. An Append moves no
//     message, so Replace need not wait for it. The lock is an advisory
//     one, taken first by the only two functions that take it, because
//     the row lock it replaced (FOR KEY SHARE on the bounds row, against
//     Remove's FOR UPDATE on a row that Appends keep updating) deadlocked
//     now and then.
//   - Get is one statement that reads the bounds, the page and the row
//     from one snapshot, so an out-of-range answer carries the length the
//     collection had in that snapshot. List reads the bounds and the
//     first chunk of its window in one statement, and each later chunk in
//     its own, going on across appends by key and across removals by a
//     log of them, so that it yields the window as of its first chunk less
//     what was removed before it was read (listing.go); Usage reads the
//     bounds row.
//
// # Limits
//
// Options.Limits bound the collection; each instance passes its own with
// every change, and the database checks them, so that instances sharing
// it cannot together exceed a bound. An Append (a batch) locks the bounds
// row before it reads n and bytes, and admits each message in turn iff
// it fits beside those admitted before it, as one Append after another
// would; the function returns what the collection held before the batch
// and which messages it refused, from which the store gives each refused
// member its *message.LimitError, with the Usage it met, in the same round
// trip. A Replace that grows the texts locks the bounds row too, after
// the message's row, to check and update bytes; one that shrinks them is
// always made. Remove keeps bytes right through a trigger on the one row
// it deletes. The cost: a Replace that changes a text's length now
// updates the bounds row, so it queues behind the Appends of the moment
// and they behind it (each holds the row until its commit), where it
// used to run beside them.
//
// Append, Remove and Replace are PL/pgSQL functions (created by the
// migrations), so that every operation is one round trip. They are
// VOLATILE, so each statement in them takes a fresh snapshot.
//
// Because the bounds row stays locked until the commit, and a commit
// waits for its WAL record to reach the disk, appends one at a time were
// serialized on that wait: 1,060 to 1,620 POSTs a second from one
// instance on the project's 2-core machine, and fewer from two (0.66 to
// 0.84 times as many), whose backends also fought for the lock. Group
// commit (batch.go) removes that limit: while a batch of a process is in
// flight, its Appends queue, and the next batch takes them all (up to 256
// messages or 4 MiB) in one statement and one commit, so that the lock is
// taken once per batch rather than once per message. An Append that finds
// no batch in flight is sent at once, alone, with the statement of old.
// With batches (about 23 messages each under 64 connections), one
// instance takes 12,600 to 15,600 POSTs a second and two together about
// as many (0.94 to 1.11 times): the two cores, shared by the load
// generator, the service and the server, are the limit now, not the
// commit. A lone Append takes as long as before.
//
// # Failures
//
// Each operation is bounded by the pool's query timeout
// (app.jdbc.template.query-timeout), waiting for a connection (or, for an
// Append, for its batch) included, and the server enforces the same bound
// (statement_timeout, which the pool sets), so a Remove cut off by the deadline is
// rolled back rather than left running with the collection locked. A
// batch of several Appends has a deadline of its own, the same Timeout
// from when it is sent, so that no member's context cuts it off for the
// others. When the database cannot be reached, a connection is cut, the
// server is shutting down, full or read-only (a standby, or a primary
// fenced for a switchover), or the bound is exceeded, the error wraps an
// *outage.Error (datasource.Classify); every member of a batch that
// failed gets it.
// Nothing is retried: a statement that was sent may have committed, so an
// operation that failed with an outage may or may not have taken effect
// (for a batch, all its messages or none), while an Append that returned
// nil was stored exactly once. An Append whose caller gives up while it
// is queued is not appended; once its batch is in flight, its outcome is
// unknown to the caller who left. A broken connection, or a write
// refused as read-only, has the pool close every connection it holds
// (framework/datasource/failover.go), and it dials new ones, through the URL's hosts, when
// they are needed, so the store recovers by itself when the server is
// back or a standby is promoted. DB.Close fails
// the Appends still queued (they are not appended) and waits for the
// batch in flight, and for the chunks of listings being read.
//
// A listing is read in chunks of at most 1,000 messages and 256 KiB, each
// one short statement bounded by the query timeout, and holds no connection
// between them: an HTTP client that reads it slowly holds memory for one
// chunk, not a connection. At most max(1, MaxConns/2) chunks are read at
// once, so that listings leave connections to everything else; a chunk
// that gets no slot in time fails with an outage that says the listings
// are busy. listing.go explains how.
//
// # Schema
//
// Migrate applies the SQL migrations embedded in db/migration
// (Migrations), in Flyway's format, with framework/datasource/flyway,
// which records them in Flyway's flyway_schema_history as Flyway would,
// under Flyway's advisory lock: instances that start together migrate one
// at a time, the first migrates, the others then find nothing to do. A
// database migrated by greeter's earlier goose migrations (recorded in
// greeter_schema_version) is given a baseline at goose's version, and
// continued from there. Versions applied that are newer than this binary
// knows are accepted with a warning, as Flyway accepts them. Flyway's
// format has no Down: a schema is not migrated back.
// Version 2 converts a collection of version 1 to pages in place, in one
// transaction (about 3.5 s for a million messages).
// Instances of version 1 must be stopped before one of version 2 starts:
// the functions they call change signature. Version 3 only adds
// greeter_append_messages, so instances of version 2 keep working while
// those of version 3 start (though a version 2 binary refuses to start on
// a database at version 3). Version 4 adds bytes and the functions that
// take limits, as overloads, and redefines those of version 3 as the new
// ones without limits, so instances of version 3 keep working, and
// keeping bytes right, while those of version 4 start.
package postgres

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/datasource"
)

// Options configure the store.
type Options struct {
	// DataSource configures the pool that Open opens of its own: the URL,
	// the pool's bounds and timeouts. New is given a pool, and does not
	// read it.
	DataSource datasource.Options
	// Logger logs the migrations that Open runs (nil: nothing).
	Logger *slog.Logger
	// Limits bound the collection (0: no bound). Every instance passes
	// its own to the database with each change, which checks them there.
	Limits message.Limits
}

// DB is the message store on a pool of connections to one PostgreSQL
// database whose schema Migrate has brought to the version this binary
// knows.
type DB struct {
	pool     *datasource.Pool
	ownPool  bool // Open opened it, and Close closes it
	messages *Messages
}

// Configure is what the store needs of every connection of its pool:
// READ COMMITTED, whatever the database's default, which its correctness
// argument assumes (see Concurrency). The datasource starter is given it
// (datasource.Options.Configure).
func Configure(cfg *pgxpool.Config) {
	cfg.ConnConfig.RuntimeParams["default_transaction_isolation"] = "read committed"
}

// New builds the store on pool, configured with Configure and migrated
// with Migrate. Each operation is bounded by the pool's query timeout
// (the default, when the pool has none). Close closes the store, not the
// pool.
func New(pool *datasource.Pool, opts Options) *DB {
	timeout := pool.QueryTimeout()
	if timeout == 0 {
		timeout = datasource.DefaultQueryTimeout
	}
	return &DB{pool: pool, messages: newMessages(pool, timeout, opts.Limits)}
}

// Open opens a pool of its own on opts.DataSource (with Configure),
// migrates the schema, and builds the store on it, for tests and tools
// that run the store without a service; Close closes both. Its errors
// say what failed and never contain the password; when the server could
// not be reached the error wraps an *outage.Error.
func Open(ctx context.Context, opts Options) (*DB, error) {
	ds := opts.DataSource
	configure := ds.Configure
	ds.Configure = func(cfg *pgxpool.Config) {
		Configure(cfg)
		if configure != nil {
			configure(cfg)
		}
	}
	if ds.ApplicationName == "" {
		ds.ApplicationName = "greeter" // names the sessions in pg_stat_activity
	}
	pool, err := datasource.Open(ctx, ds)
	if err != nil {
		return nil, err
	}
	if err := Migrate(ctx, pool, opts.Logger); err != nil {
		pool.Close()
		return nil, err
	}
	db := New(pool, opts)
	db.ownPool = true
	return db, nil
}

// newMessages builds the message store on pool.
func newMessages(pool *datasource.Pool, timeout time.Duration, limits message.Limits) *Messages {
	return &Messages{
		pool:     pool.Pgx(),
		timeout:  timeout,
		limits:   limits,
		appends:  newAppender(pool.Pgx(), timeout, limits),
		listings: make(chan struct{}, max(1, pool.MaxConns()/2)),
	}
}

// Close fails the Appends still waiting for a batch (their messages are
// not appended), waits for the batch in flight, and, when Open opened the
// pool, waits for every connection in use to be released and closes it.
func (db *DB) Close() {
	db.messages.appends.close()
	if db.ownPool {
		db.pool.Close()
	}
}

// Pool is the pool the store runs on.
func (db *DB) Pool() *datasource.Pool { return db.pool }

// Messages returns the message store kept in this database.
func (db *DB) Messages() *Messages { return db.messages }
