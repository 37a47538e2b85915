// This file implements group commit for Append.
//
// An Append holds the bounds row locked until it commits, and a commit
// waits for the WAL to reach the disk, so appends one at a time are
// limited to one commit's latency each, however many callers wait: about
// a thousand a second here, and fewer with two instances, whose backends
// then also fight for the lock. The appender lets the Appends of one
// process share a transaction. At most one batch of a process is in
// flight; while it is, Appends wait in a queue, and when it ends the next
// batch takes the queue's head (at most maxBatchMessages messages and,
// unless a single message is larger, maxBatchBytes bytes), in order of
// arrival, and sends it as one call of greeter_append_messages: one round
// trip, one commit. A caller's next Append, made after the last returned,
// arrives after it and so goes in the same batch or a later one.
//
// An Append that finds nothing in flight is a batch of one, sent at once
// on its caller's goroutine, so that batching adds nothing when appends
// are rare: no wait, no hand-over to another goroutine. It carries no one
// else's message, so the caller's context bounds it, as it bounded every
// Append before. A batch of several runs on a goroutine of the appender,
// which lives while the queue is not empty, under a deadline of its own
// (the query timeout, like any operation): a member who leaves does not
// cancel the statement that carries the others' messages.
//
// Every member of a batch gets the batch's outcome: nil only when it
// committed, unless the limits refused its message (a
// *message.LimitError). The function admits each message in turn iff it
// fits beside those admitted before it in the batch, as one Append after
// another would be, and returns which it refused with what the collection
// held before the batch, from which send rebuilds each refusal. Nothing is retried, so an error that wraps an *outage.Error
// leaves every member's message stored or none (the batch is one
// transaction), unknown which; a message is never stored twice. A caller
// waits up to its context, bounded by the query timeout as every operation
// is. Leaving while its message is still queued takes the message out,
// and it is not appended; leaving once the message is in a batch in
// flight leaves its outcome unknown, as a statement cut off by a deadline
// always did.
//
// The queue holds only Appends whose callers are blocked in Append, one
// small record each, with the bytes of its text that the statement would
// carry anyway. It has no bound of its own: like the pool's queue of
// callers waiting for a connection before it, it is bounded by how many
// callers are in Append at once, which the HTTP server bounds (one request
// at a time per connection), each for at most the query timeout.

package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/datasource"
)

// The bounds on a batch. 256 messages make a commit's cost negligible per
// message; 4 MiB keeps a batch's array, which the server holds in memory
// whole, far from the 1 GB limit on a value and from the statement
// timeout.
const (
	maxBatchMessages = 256
	maxBatchBytes    = 4 << 20
)

// errClosed is the error of an Append made or still queued when the DB was
// closed: its message was not appended.
var errClosed = errors.New("the store is closed")

// appender batches the Appends of one Messages.
type appender struct {
	pool        *pgxpool.Pool
	timeout     time.Duration  // the pool's query timeout
	limits      message.Limits // Options.Limits
	maxMessages int            // maxBatchMessages, but for tests
	maxBytes    int            // maxBatchBytes, but for tests

	mu       sync.Mutex
	queue    []*waiting // in order of arrival
	running  bool       // a batch is in flight, or about to be
	inFlight int        // its members
	closed   bool
	busy     sync.WaitGroup // the goroutines that send batches

	batches atomic.Int64 // sent, for tests
}

// waiting is one Append waiting in the queue, then for its batch's
// outcome.
type waiting struct {
	text  []byte
	taken bool       // in a batch, no longer in the queue; guarded by mu
	done  chan error // receives the outcome once; buffered, so the batch never waits for a caller who left
}

func newAppender(pool *pgxpool.Pool, timeout time.Duration, limits message.Limits) *appender {
	return &appender{pool: pool, timeout: timeout, limits: limits, maxMessages: maxBatchMessages, maxBytes: maxBatchBytes}
}

// append sends text at once when no batch is in flight, and otherwise
// queues it and waits for the outcome of the batch that takes it.
func (a *appender) append(ctx context.Context, text string) error {
	ctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return fmt.Errorf("appending a message: %w", errClosed)
	}
	if !a.running {
		// A batch of one, on the caller's goroutine: handing it to
		// another would cost a wake-up of an idle thread each way, about
		// 70 µs an Append here. It fails no one else, so the caller's
		// context bounds it as well as the timeout.
		a.running, a.inFlight = true, 1
		a.busy.Add(1)
		a.mu.Unlock()
		outcomes := a.send(ctx, [][]byte{textBytes(text)})
		a.handOver()
		return outcomes[0]
	}
	w := &waiting{text: textBytes(text), done: make(chan error, 1)}
	a.queue = append(a.queue, w)
	a.mu.Unlock()

	select {
	case err := <-w.done:
		return err
	case <-ctx.Done():
		return a.leave(ctx, w)
	}
}

// leave is how an Append whose context ended gets out: out of the queue
// when its message is still there, otherwise without its batch's outcome,
// unless that arrived meanwhile. A context that ended by its deadline is
// classified as one, an outage: the database did not answer in time.
func (a *appender) leave(ctx context.Context, w *waiting) error {
	a.mu.Lock()
	taken := w.taken
	if !taken {
		if i := slices.Index(a.queue, w); i >= 0 {
			a.queue = slices.Delete(a.queue, i, i+1)
		}
	}
	a.mu.Unlock()
	select {
	case err := <-w.done: // the outcome, or errClosed
		return err
	default:
	}
	if !taken {
		return fmt.Errorf("appending a message: gave up while it waited for a batch, so it was not appended: %w", datasource.Classify(ctx.Err()))
	}
	return fmt.Errorf("appending a message: gave up while its batch was in flight, so it may or may not be stored: %w", datasource.Classify(ctx.Err()))
}

// handOver ends a batch of one: the Appends queued meanwhile go on a
// goroutine of their own, so that the caller returns at once.
func (a *appender) handOver() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.queue) == 0 {
		a.running, a.inFlight = false, 0
	} else {
		a.busy.Add(1)
		go a.run()
	}
	a.busy.Done()
}

// run sends batches until the queue is empty, then ends: the goroutine
// lives only while Appends arrive faster than batches commit.
func (a *appender) run() {
	defer a.busy.Done()
	for {
		batch := a.take()
		if batch == nil {
			return
		}
		texts := make([][]byte, len(batch))
		for i, w := range batch {
			texts[i] = w.text
		}
		// A deadline of the batch's own: a member who leaves does not
		// cancel the statement that carries the others' messages.
		ctx, cancel := context.WithTimeout(context.Background(), a.timeout)
		outcomes := a.send(ctx, texts)
		cancel()
		for i, w := range batch {
			w.done <- outcomes[i]
		}
	}
}

// take removes the next batch from the queue, or, when the queue is
// empty, records that no batch is in flight and returns nil.
func (a *appender) take() []*waiting {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.queue) == 0 {
		a.running, a.inFlight = false, 0
		return nil
	}
	k, size := 0, 0
	for k < len(a.queue) && k < a.maxMessages {
		n := len(a.queue[k].text)
		if k > 0 && size+n > a.maxBytes {
			break
		}
		size += n
		k++
	}
	batch := slices.Clone(a.queue[:k])
	a.queue = slices.Delete(a.queue, 0, k)
	for _, w := range batch {
		w.taken = true
	}
	a.inFlight = len(batch)
	return batch
}

// send appends texts in one statement and returns the outcome of each. A
// batch of one goes as greeter_append_message, which does the same with
// less work than taking an array apart: about 20 µs less here, 4% of an
// Append at low load.
func (a *appender) send(ctx context.Context, texts [][]byte) []error {
	a.batches.Add(1)
	var before message.Usage // what the collection held before the batch
	var refused []int32      // the indexes in texts of the messages refused, in order
	var err error
	if len(texts) == 1 {
		var admitted bool
		err = a.pool.QueryRow(ctx, appendOneSQL, texts[0], a.limits.MaxCount, a.limits.MaxBytes).Scan(&before.Count, &before.Bytes, &admitted)
		if !admitted {
			refused = []int32{0}
		}
	} else {
		err = a.pool.QueryRow(ctx, appendSQL, texts, a.limits.MaxCount, a.limits.MaxBytes).Scan(&before.Count, &before.Bytes, &refused)
	}
	outcomes := make([]error, len(texts))
	if err != nil {
		err = fmt.Errorf("appending a message (in a batch of %d): %w", len(texts), datasource.Classify(err))
		for i := range outcomes {
			outcomes[i] = err
		}
		return outcomes
	}
	// Each refused message met the collection as the admitted ones before
	// it in the batch left it.
	u := before
	for i, text := range texts {
		if len(refused) > 0 && refused[0] == int32(i) {
			refused = refused[1:]
			outcomes[i] = refusal(a.limits, u, 1, int64(len(text)))
			continue
		}
		u.Count++
		u.Bytes += int64(len(text))
	}
	return outcomes
}

// close fails the Appends still queued, refuses new ones, and waits for
// the batch in flight, whose members get its outcome.
func (a *appender) close() {
	a.mu.Lock()
	a.closed = true
	queued := a.queue
	a.queue = nil
	a.mu.Unlock()
	for _, w := range queued {
		w.done <- fmt.Errorf("appending a message: %w", errClosed)
	}
	a.busy.Wait()
}
