package otlphttp

// How an export the collector refuses for now is sent again.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/cenkalti/backoff/v5"
)

// retryable is an answer that may change if the export is sent again,
// after at least the collector's Retry-After.
type retryable struct {
	err   error
	after time.Duration
}

func (r retryable) Error() string { return r.err.Error() }
func (r retryable) Unwrap() error { return r.err }

// IsRetryable reports whether err is a refusal for now (429, 502, 503,
// 504, or a connection failure that net/http calls temporary), which
// Post has retried until its time ran out, rather than a refusal that
// will not change.
func IsRetryable(err error) bool {
	var r retryable
	return errors.As(err, &r)
}

// retryAfter is the wait a Retry-After header asks for: a number of
// seconds, or a date; none when it is neither.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil && s >= 0 {
		return time.Duration(min(s, int64(1<<63-1)/int64(time.Second))) * time.Second
	}
	if date, err := http.ParseTime(v); err == nil {
		return max(time.Until(date), 0)
	}
	return 0
}

// retryConfig says how an export is sent again (retryPolicy).
type retryConfig struct {
	initial, max, total time.Duration
}

// retryPolicy is how an export that the collector refuses for now (429,
// 502, 503, 504), or whose connection failed in a way net/http calls
// temporary (a reset, a timeout), is sent again, as the OTLP
// specification asks: after a back-off that grows by half each time
// (randomised by half either way), or after the collector's Retry-After
// when that is longer; never past the export's timeout, so that a
// collector that keeps refusing holds neither the exporter's goroutine
// nor a shutdown longer than that. The SDKs' default back-off starts at
// 5 s and goes on for a minute, which a 10 s timeout would cut to one
// retry; it starts here at a tenth of the timeout (1 s of the default
// 10 s), at most 5 s, and grows to at most half of it.
func retryPolicy(timeout time.Duration) retryConfig {
	return retryConfig{
		initial: min(timeout/10, 5*time.Second),
		max:     min(timeout/2, 30*time.Second),
		total:   timeout,
	}
}

// do calls send until it succeeds, fails for good, or the policy or ctx
// stops it, waiting between calls; it gives up at once when the wait the
// collector asks for would go past the total. This is the loop the SDK's
// clients run, with the same back-off.
func (p retryConfig) do(ctx context.Context, send func(context.Context) error) error {
	b := &backoff.ExponentialBackOff{
		InitialInterval:     p.initial,
		RandomizationFactor: backoff.DefaultRandomizationFactor,
		Multiplier:          backoff.DefaultMultiplier,
		MaxInterval:         p.max,
	}
	b.Reset()
	began := time.Now()
	for {
		if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		err := send(ctx)
		var again retryable
		if err == nil || !errors.As(err, &again) {
			return err
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%w: %w", context.Cause(ctx), err)
		}
		elapsed := time.Since(began)
		if elapsed > p.total {
			return fmt.Errorf("max retry time elapsed: %w", err)
		}
		if elapsed+again.after > p.total {
			return fmt.Errorf("max retry time would elapse: %w", err)
		}
		timer := time.NewTimer(max(again.after, b.NextBackOff()))
		select {
		case <-ctx.Done():
			timer.Stop()
			return fmt.Errorf("%w: %w", context.Cause(ctx), err)
		case <-timer.C:
		}
	}
}
