package datasource

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultMaxAttempts bounds the runs of a transaction that Transact
// retries: the first and three more, as Spring Framework 7's @Retryable
// bounds its retries (maxRetries 3), rather than retrying until a
// deadline.
const DefaultMaxAttempts = 4

// TxOptions are a transaction's: pgx's (the isolation level, read only,
// deferrable) and how many times Transact runs it at most.
type TxOptions struct {
	pgx.TxOptions
	// MaxAttempts bounds the runs of the transaction: 1 never runs it
	// again; 0 is DefaultMaxAttempts.
	MaxAttempts int
}

// Transact runs fn in a transaction begun with opts and commits it, each
// run within the query timeout; ctx bounds them all. When fn, or the
// commit, fails with a serialization failure (40001: a SERIALIZABLE or
// REPEATABLE READ transaction that conflicted with another) or a
// deadlock (40P01), the server has rolled the transaction back, and
// Transact runs it again from the start, after a short random pause that
// grows with each attempt (up to 10 ms, 20 ms, 40 ms…), until it commits
// or opts.MaxAttempts runs have failed so.
//
// fn must therefore be safe to run again: it should do nothing outside
// the transaction that it cannot do twice, and use the ctx it is given.
// Any other error of fn, or of the commit, ends Transact with that error
// at once, the transaction rolled back; Transact's own errors have been
// through Classify. A commit whose connection broke is not retried: it
// may have committed.
func (p *Pool) Transact(ctx context.Context, opts TxOptions, fn func(ctx context.Context, tx pgx.Tx) error) error {
	attempts := opts.MaxAttempts
	if attempts <= 0 {
		attempts = DefaultMaxAttempts
	}
	for attempt := 1; ; attempt++ {
		err := p.transactOnce(ctx, opts.TxOptions, fn)
		if err == nil || !Retryable(err) {
			return err
		}
		if attempt == attempts {
			return fmt.Errorf("the transaction was rolled back %d times in a row, each for a conflict with another (a serialization failure or a deadlock); the last time: %w", attempts, err)
		}
		pause := time.Duration(rand.Int64N(int64(10*time.Millisecond) << min(attempt-1, 6)))
		select {
		case <-ctx.Done():
			return Classify(fmt.Errorf("giving up on a transaction to retry: %w", context.Cause(ctx)))
		case <-time.After(pause):
		}
	}
}

// transactOnce runs one attempt of Transact.
func (p *Pool) transactOnce(ctx context.Context, opts pgx.TxOptions, fn func(context.Context, pgx.Tx) error) error {
	ctx, cancel := p.bound(ctx)
	defer cancel()
	tx, err := p.pool.BeginTx(ctx, opts)
	if err != nil {
		return Classify(err)
	}
	if err := fn(ctx, tx); err != nil {
		// Rolled back within a second of its own: ctx may be over.
		rollback, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_ = tx.Rollback(rollback)
		return Classify(err)
	}
	// A serialization failure found at COMMIT is the server's error, and
	// retried as one found before.
	return Classify(tx.Commit(ctx))
}
