package dispatch

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/springport/greeter/framework/testing/logtest"
)

// streamOf makes a Stream of n messages that fails with err after failAt
// of them (never when failAt < 0), counting its Close calls in closed.
func streamOf(n, failAt int, err error, closed *atomic.Int32) Handler {
	return Streams(func(*Request) (Stream[Message], error) {
		items := func(yield func(Message, error) bool) {
			for i := range n {
				if i == failAt {
					yield(Message{}, err)
					return
				}
				if !yield(Message{Text: fmt.Sprintf("message %d <&>", i)}, nil) {
					return
				}
			}
		}
		return Stream[Message]{Items: iter.Seq2[Message, error](items),
			Header: http.Header{"X-Total-Count": {fmt.Sprint(n)}}, Close: func() { closed.Add(1) }}, nil
	})
}

func messagesOf(n int) []Message {
	all := make([]Message, n)
	for i := range all {
		all[i] = Message{Text: fmt.Sprintf("message %d <&>", i)}
	}
	return all
}

// TestStreamWritesWhatReturnsWrites checks that a streamed list is the
// same document, byte for byte, as the slice written whole, short or long
// (past flushAt), in JSON and in XML, and that its headers come with it.
func TestStreamWritesWhatReturnsWrites(t *testing.T) {
	t.Parallel()
	var closed atomic.Int32
	for _, n := range []int{0, 1, 3, 5000} {
		d := newDispatcher(t, Options{},
			Route{Method: "GET", Pattern: "/stream", Handler: streamOf(n, -1, nil, &closed)},
			Route{Method: "GET", Pattern: "/whole", Handler: Returns(func(*Request) ([]Message, error) { return messagesOf(n), nil })},
		)
		for _, accept := range []string{"application/json", "application/xml"} {
			closed.Store(0)
			streamed := serve(d, "GET", "/stream", nil, "Accept: "+accept)
			whole := serve(d, "GET", "/whole", nil, "Accept: "+accept)
			if streamed.Code != 200 || streamed.Body.String() != whole.Body.String() {
				t.Errorf("%d messages as %s: streamed %d %.80q…, whole %.80q…", n, accept, streamed.Code, streamed.Body, whole.Body)
			}
			if got, want := streamed.Header().Get("Content-Type"), whole.Header().Get("Content-Type"); got != want {
				t.Errorf("%d messages as %s: Content-Type %q, want %q", n, accept, got, want)
			}
			if got := streamed.Header().Get("X-Total-Count"); got != fmt.Sprint(n) {
				t.Errorf("%d messages as %s: X-Total-Count %q", n, accept, got)
			}
			if closed.Load() != 1 {
				t.Errorf("%d messages as %s: Close called %d times, want 1", n, accept, closed.Load())
			}
		}
	}
}

// TestStreamFlushesAsItGoes checks that a long list is sent in pieces
// while it is encoded, not once it is whole.
func TestStreamFlushesAsItGoes(t *testing.T) {
	t.Parallel()
	const n = 20_000
	var seenByClient atomic.Int64
	var closed atomic.Int32
	d := newDispatcher(t, Options{}, Route{Method: "GET", Pattern: "/stream", Handler: Streams(func(*Request) (Stream[Message], error) {
		return Stream[Message]{Items: func(yield func(Message, error) bool) {
			for i := range n {
				if i == n-1 && seenByClient.Load() == 0 {
					yield(Message{}, errors.New("nothing was sent before the last message"))
					return
				}
				if !yield(Message{Text: strings.Repeat("x", 100)}, nil) {
					return
				}
			}
		}, Close: func() { closed.Add(1) }}, nil
	})})
	w := &countingRecorder{ResponseRecorder: httptest.NewRecorder(), written: &seenByClient}
	d.ServeHTTP(w, httptest.NewRequest("GET", "/stream", nil))
	if w.Code != 200 || !strings.HasSuffix(w.Body.String(), `"}]`) {
		t.Fatalf("status %d, body ends %q", w.Code, w.Body.String()[max(0, w.Body.Len()-20):])
	}
	if w.Header().Get("Content-Length") != "" {
		t.Error("a response sent in pieces claims a Content-Length")
	}
}

type countingRecorder struct {
	*httptest.ResponseRecorder
	written *atomic.Int64
}

func (w *countingRecorder) Write(p []byte) (int, error) {
	w.written.Add(int64(len(p)))
	return w.ResponseRecorder.Write(p)
}

// TestStreamFailures checks both ways a stream can fail: before anything
// was sent, as a problem document without the stream's headers; after,
// by cutting the connection, so that the client cannot take half a list
// for the whole. Either way the failure is logged and Close is called.
func TestStreamFailures(t *testing.T) {
	t.Parallel()
	var log logtest.Buffer
	var closed atomic.Int32
	boom := errors.New("the disk caught fire")
	d := newDispatcher(t, Options{Logger: slog.New(slog.NewTextHandler(&log, nil))},
		Route{Method: "GET", Pattern: "/early", Handler: streamOf(10, 5, boom, &closed)},
		Route{Method: "GET", Pattern: "/late", Handler: streamOf(10_000, 9_000, boom, &closed)},
		Route{Method: "GET", Pattern: "/refused", Handler: Streams(func(*Request) (Stream[Message], error) {
			return Stream[Message]{}, &Error{Status: http.StatusBadRequest, Detail: "No."}
		})},
	)
	srv := httptest.NewServer(d)
	defer srv.Close()

	w := serve(d, "GET", "/early", nil)
	checkProblem(t, "/early", w, 500, "/early", "An unexpected error occurred.")
	if w.Header().Get("X-Total-Count") != "" {
		t.Error("the problem document carries the failed stream's headers")
	}
	checkProblem(t, "/refused", serve(d, "GET", "/refused", nil), 400, "/refused", "No.")

	resp, err := http.Get(srv.URL + "/late")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || err == nil {
		t.Errorf("a stream that failed halfway: status %d, read error %v after %d bytes; want 200 and a cut body", resp.StatusCode, err, len(body))
	}
	if got := closed.Load(); got != 2 {
		t.Errorf("Close called %d times for two streams", got)
	}
	if n := strings.Count(log.String(), "the disk caught fire"); n != 2 {
		t.Errorf("%d log lines name the failure, want 2 (one per failed stream):\n%s", n, log.String())
	}
}

// TestStreamClientGone checks that a client that leaves halfway ends the
// stream, which is closed, without a failure in the log.
func TestStreamClientGone(t *testing.T) {
	t.Parallel()
	var log logtest.Buffer
	var closed atomic.Int32
	ended := make(chan struct{})
	d := newDispatcher(t, Options{Logger: slog.New(slog.NewTextHandler(&log, nil))},
		Route{Method: "GET", Pattern: "/endless", Handler: Streams(func(r *Request) (Stream[Message], error) {
			return Stream[Message]{Items: func(yield func(Message, error) bool) {
				for {
					if err := r.Context().Err(); err != nil {
						yield(Message{}, err)
						return
					}
					if !yield(Message{Text: strings.Repeat("y", 1000)}, nil) {
						return
					}
				}
			}, Close: func() { closed.Add(1); close(ended) }}, nil
		})},
	)
	srv := httptest.NewServer(d)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/endless")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(resp.Body, make([]byte, 100_000)); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close() // leaves halfway
	<-ended
	if strings.Contains(log.String(), "request failed") {
		t.Errorf("a client's leaving is logged as a failure:\n%s", log.String())
	}
}
