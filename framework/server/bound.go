package server

// The bound on requests handled at once (issue 37). Tomcat runs a
// request on one of server.tomcat.threads.max threads (200) and an
// HTTP/2 connection's streams on at most maxConcurrentStreamExecution
// (20) of them; a Go server starts a goroutine for every request and
// stream, with no bound across connections, so forty HTTP/2 connections
// could hold 10,000 handlers at once. Here each port has places for
// server.tomcat.threads.max requests, over HTTP/1.1 and HTTP/2 together:
//
//   - A request takes a place before its handler runs: one
//     compare-and-swap when a place is free, nothing allocated, no timer.
//     When none is, it waits up to placeWait for one, then is answered
//     503 with Retry-After and a problem document.
//   - A place is for work, not for a slow client: a handler whose write
//     (or flush) has been blocked for stallRelease gives up its place, so
//     that clients that stop reading cannot deny service to the others.
//     It keeps writing, and takes a place again, waiting as a new
//     request does but never refused, once that write returns: what it
//     does next is work again.
//   - An HTTP/2 stream whose write has been blocked for streamStall (the
//     peer gives it no window) is reset at once, as Tomcat's
//     streamWriteTimeout does, rather than after server.write-timeout: its
//     handler's write fails and it ends. A download that progresses, however
//     slowly, is not cut: writes are passed on in pieces of at most
//     writePiece bytes, and the clock restarts with each piece.
//   - An HTTP/2 connection runs at most
//     server.http2.max-concurrent-stream-execution of its streams at once
//     (connection.go); the others wait for their turn, holding no place.
//   - A quarter of the places is kept for requests alone on their
//     connection (an HTTP/1.1 request, or an HTTP/2 connection's one
//     running stream): the streams of connections that run several hold
//     at most the other three quarters (sharedPlaces), so that a few
//     multiplexing connections, each within its turns, cannot take every
//     place from the clients that send one request at a time. Under
//     issue 37's flood (40 connections of 20 running streams each), a
//     plain request then finds a place free instead of waiting for a
//     stalled stream to give one up.
//
// Each port has its own places, as Spring's management server on a port
// of its own is a web server of its own with its own threads: a flood of
// server.port leaves the health and metrics of the management port
// answering.
//
// Blocked writes are seen without a clock on the request's path: a
// writer counts each write it enters and leaves (an odd count is a write
// under way), and one watcher, running only while writers are registered,
// looks every watchTick for counts that have not moved.

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

const (
	// placeWait is how long a request waits for a place when all are
	// taken: long enough to ride out a burst (a place turns over in the
	// time of a request), short enough that a client retrying is better
	// served than one queued.
	placeWait = 500 * time.Millisecond
	// retryAfter is the Retry-After, in seconds, of a request refused a
	// place.
	retryAfter = "1"
	// watchTick is how often the watcher looks at the writers.
	watchTick = 25 * time.Millisecond
	// stallRelease is how long a write may be blocked before its
	// handler gives up its place. Short: when a flood's streams take
	// every place and then stall, a request that comes waits about this
	// long (and up to a tick more) for one. At 100 ms, plain requests
	// beside issue 37's HTTP/2 flood took up to 130-190 ms; at 25 ms, at
	// most 30-60 ms. A client that reads slowly gives its place up and
	// takes one again more often, which costs the watcher nothing more.
	stallRelease = 25 * time.Millisecond
	// streamStall is how long an HTTP/2 stream's write may be blocked
	// before the stream is reset.
	streamStall = 5 * time.Second
	// writePiece is the most bytes passed on to the server in one write,
	// so that a long write to a slow reader shows progress: at least
	// writePiece/streamStall (3.2 KB/s) is never cut.
	writePiece = 16 << 10
)

const maxThreadsKey = "server.tomcat.threads.max"

// bindMaxThreads reads server.tomcat.threads.max: Spring's name for the
// requests a port handles at once, and its default.
func bindMaxThreads(b *config.Binder) int {
	return config.Bind(b, maxThreadsKey, 200, config.IntIn(1, 1<<20), "requests each port handles at once, over HTTP/1.1 and HTTP/2 together (Tomcat's request threads, Spring's name and default); the streams of HTTP/2 connections running several hold at most three quarters, the rest kept for requests alone on their connection; more wait up to 500ms for a place, then get 503 with Retry-After: 1 and a problem document")
}

// places bounds the requests a port handles at once.
type places struct {
	max int64
	// sharedMax is the most places the requests of a connection that
	// runs others may hold (sharedPlaces).
	sharedMax   int64
	taken       atomic.Int64
	sharedTaken atomic.Int64 // the places held by such requests, within taken
	// The waiters, and those of them not alone on their connection, read
	// without waitMu.
	waiting, waitingShared atomic.Int64
	// The requests waiting for a place, oldest first, in two lists (see
	// next): a place given back is handed to one of them, and stays taken.
	waitMu        sync.Mutex
	alone, shared []chan struct{}

	mu       sync.Mutex
	writers  *boundWriter // those that have written, a list through next
	watching bool         // the watcher runs
	pool     sync.Pool    // of *boundWriter

	// beforeFree, set by a test alone, runs as give frees a place that
	// no waiter was seen for: where a request beginning to wait is
	// missed unless give looks again.
	beforeFree func()
}

func newPlaces(max int) *places {
	return &places{max: int64(max), sharedMax: sharedPlaces(int64(max))}
}

// sharedPlaces is the most of max places that requests sharing their
// connection with others may hold: three quarters, and at least one.
func sharedPlaces(max int64) int64 { return max - max/4 }

// wrap bounds h's requests by p's places, and an HTTP/2 connection's
// running streams by its turns (connection.go).
func (p *places) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		alone := true
		if r.ProtoMajor == 2 {
			if c := connTurnsOf(r.Context()); c != nil {
				if !c.take(r.Context()) {
					return // the stream was reset or the connection closed while it waited
				}
				defer c.give()
				alone = len(c) == 1
			}
		}
		if !p.take(alone) && !p.wait(r.Context(), alone) {
			if r.Context().Err() == nil {
				w.Header().Set("Retry-After", retryAfter)
				dispatch.WriteProblem(w, r, http.StatusServiceUnavailable, "The server is handling as many requests as it may; try again shortly.")
			}
			return
		}
		bw, _ := p.pool.Get().(*boundWriter)
		if bw == nil {
			bw = &boundWriter{p: p}
		}
		bw.w, bw.stream, bw.ctx, bw.alone = w, r.ProtoMajor == 2, r.Context(), alone
		bw.held.Store(true)
		defer p.done(bw)
		h.ServeHTTP(bw, r)
	})
}

// take takes a free place, if there is one for a request alone on its
// connection, or not (sharedPlaces).
func (p *places) take(alone bool) bool {
	if alone {
		return below(&p.taken, p.max)
	}
	if !below(&p.sharedTaken, p.sharedMax) {
		return false
	}
	if below(&p.taken, p.max) {
		return true
	}
	p.sharedTaken.Add(-1)
	return false
}

// below adds one to n if that keeps it at most max, and reports whether
// it did.
func below(n *atomic.Int64, max int64) bool {
	for {
		v := n.Load()
		if v >= max {
			return false
		}
		if n.CompareAndSwap(v, v+1) {
			return true
		}
	}
}

// give gives back the place of a request alone on its connection, or not:
// to a waiter that may take it, if one waits, else to the free places.
func (p *places) give(alone bool) {
	if !alone {
		p.sharedTaken.Add(-1)
	}
	for {
		if p.waiting.Load() > 0 {
			p.waitMu.Lock()
			if w := p.next(); w != nil {
				p.waiting.Add(-1)
				p.waitMu.Unlock()
				w <- struct{}{}
				return
			}
			p.waitMu.Unlock()
		}
		if p.beforeFree != nil {
			p.beforeFree()
		}
		p.taken.Add(-1)
		// A request that began to wait after the look above, and looked
		// for a free place before this one was freed, found none and
		// would wait out placeWait beside it (and be refused, if no
		// other place is given back meanwhile): look again, and take the
		// place back to hand it over.
		if !p.handable() || !p.take(true) {
			return
		}
	}
}

// handable reports whether a waiter may be handed a place: one alone on
// its connection, or another while the shared places are not all held.
func (p *places) handable() bool {
	ws := p.waitingShared.Load()
	return p.waiting.Load() > ws || ws > 0 && p.sharedTaken.Load() < p.sharedMax
}

// next takes the waiter to hand a place to off its list, under waitMu:
// the newest of those alone on their connection, else the newest of the
// others if a shared place is free (next takes it for that waiter).
// Newest first (as Facebook's "adaptive LIFO" does): under a flood the
// requests that came first have waited longest and are refused, and one
// that has just come is served at the next place given back, not queued
// behind the flood. Alone first: an HTTP/1.1 request, or the one stream
// an HTTP/2 connection runs, goes before the streams of a connection that
// already runs others, so that a few connections cannot take every place
// from the rest.
func (p *places) next() chan struct{} {
	list := &p.alone
	if len(*list) == 0 {
		list = &p.shared
		if len(*list) == 0 || !below(&p.sharedTaken, p.sharedMax) {
			return nil
		}
		p.waitingShared.Add(-1)
	}
	n := len(*list)
	w := (*list)[n-1]
	*list = (*list)[:n-1]
	return w
}

// wait waits up to placeWait for a place, and reports whether it got
// one. alone says the request's connection runs no other (next).
func (p *places) wait(ctx context.Context, alone bool) bool {
	w := p.enlist(alone)
	// A place given back before this one waited went to the free places.
	if p.take(alone) {
		if !p.leave(w) {
			<-w // also handed one: give it on
			p.give(alone)
		}
		return true
	}
	timer := time.NewTimer(placeWait)
	defer timer.Stop()
	select {
	case <-w:
		return true
	case <-timer.C:
	case <-ctx.Done():
	}
	if p.leave(w) {
		return false
	}
	<-w // handed a place as it gave up: it is taken
	return true
}

// enlist puts a waiter on its list (next), and returns the channel a
// place is handed to it on.
func (p *places) enlist(alone bool) chan struct{} {
	w := make(chan struct{}, 1)
	p.waitMu.Lock()
	if alone {
		p.alone = append(p.alone, w)
	} else {
		p.shared = append(p.shared, w)
		p.waitingShared.Add(1)
	}
	p.waiting.Add(1)
	p.waitMu.Unlock()
	return w
}

// leave takes w off the waiters, and reports false when it is not on it:
// it was handed a place.
func (p *places) leave(w chan struct{}) bool {
	p.waitMu.Lock()
	defer p.waitMu.Unlock()
	for _, list := range []*[]chan struct{}{&p.alone, &p.shared} {
		for i, x := range *list {
			if x == w {
				*list = append((*list)[:i], (*list)[i+1:]...)
				p.waiting.Add(-1)
				if list == &p.shared {
					p.waitingShared.Add(-1)
				}
				return true
			}
		}
	}
	return false
}

// done ends a request: its writer leaves the watcher's list and its
// place, unless given up already, is given back.
func (p *places) done(bw *boundWriter) {
	if bw.registered {
		p.mu.Lock()
		if bw.prev != nil {
			bw.prev.next = bw.next
		} else {
			p.writers = bw.next
		}
		if bw.next != nil {
			bw.next.prev = bw.prev
		}
		p.mu.Unlock()
	}
	if bw.held.CompareAndSwap(true, false) {
		p.give(bw.alone)
	}
	bw.w, bw.registered, bw.prev, bw.next, bw.ctx = nil, false, nil, nil, nil
	bw.gaveUp.Store(false)
	bw.writes.Store(0)
	bw.seen, bw.stalled = 0, 0
	p.pool.Put(bw)
}

// register puts bw on the watcher's list, starting the watcher when it
// does not run.
func (p *places) register(bw *boundWriter) {
	bw.registered = true
	p.mu.Lock()
	bw.next = p.writers
	if bw.next != nil {
		bw.next.prev = bw
	}
	p.writers = bw
	if !p.watching {
		p.watching = true
		go p.watch()
	}
	p.mu.Unlock()
}

// watch looks at the writers every watchTick until none is left: a
// writer blocked for stallRelease gives up its place, and an HTTP/2
// stream blocked for streamStall is reset.
func (p *places) watch() {
	tick := time.NewTicker(watchTick)
	defer tick.Stop()
	for range tick.C {
		p.mu.Lock()
		if p.writers == nil {
			p.watching = false
			p.mu.Unlock()
			return
		}
		for bw := p.writers; bw != nil; bw = bw.next {
			n := bw.writes.Load()
			if n&1 == 0 || n != bw.seen {
				bw.seen, bw.stalled = n, 0
				continue
			}
			// Blocked in the same write since the last look: for at
			// least stalled ticks.
			bw.stalled++
			if blocked := time.Duration(bw.stalled) * watchTick; blocked >= stallRelease && bw.held.CompareAndSwap(true, false) {
				bw.gaveUp.Store(true)
				p.give(bw.alone)
			}
			if bw.stream && time.Duration(bw.stalled)*watchTick == streamStall {
				// A deadline in the past resets the stream at once; its
				// handler's write fails. The handler is still in its
				// write (it leaves the list only under p.mu), so its
				// server writer is still its stream's.
				http.NewResponseController(bw.w).SetWriteDeadline(time.Unix(1, 0))
			}
		}
		p.mu.Unlock()
	}
}
