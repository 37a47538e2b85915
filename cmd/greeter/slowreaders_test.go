package main

// Clients that read a long list slowly, with the messages in PostgreSQL
// (issue 25): the list is read from the database in chunks, each its own
// short statement, so they hold no connection while they read, and lists
// and pages keep being served beside them.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestSlowListReadersHoldNoConnection: forty clients ask for a list of
// 12 MB and stop reading once it has begun (their receive windows full),
// with a pool of 4 connections: every one of them gets its list started,
// and meanwhile pages, whole short lists and appends answer within the
// query timeout, never 503. A client that reads the long list while
// messages are appended gets exactly the collection as it was when its
// list began: in order, nothing lost, doubled or added. In memory, a
// listing is a snapshot that holds no lock: the same holds.
func TestSlowListReadersHoldNoConnection(t *testing.T) {
	t.Parallel()
	eachStore(t, testSlowListReaders)
}

func testSlowListReaders(t *testing.T, storeArgs []string) {
	const queryTimeout = 2 * time.Second
	s := start(t, append(storeArgs, "--app.datasource.hikari.maximum-pool-size=4",
		"--app.jdbc.template.query-timeout="+queryTimeout.String(), "--server.max-request-size=8KB"), nil)
	const n, size = 3000, 4096
	if len(storeArgs) > 0 {
		fillCollection(t, strings.TrimPrefix(storeArgs[0], "--app.datasource.url="), n, size)
	} else {
		postCollection(t, s.base, n, size)
	}

	var stalled []net.Conn
	defer func() {
		for _, c := range stalled {
			c.Close()
		}
	}()
	for i := range 40 {
		c, err := net.DialTimeout("tcp", s.Addr(), waitTimeout)
		if err != nil {
			t.Fatal(err)
		}
		stalled = append(stalled, c)
		c.(*net.TCPConn).SetReadBuffer(4096)
		c.SetDeadline(time.Now().Add(waitTimeout))
		fmt.Fprintf(c, "GET /api/messages HTTP/1.1\r\nHost: x\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("slow reader %d: %v %v; want its list begun, 200", i, resp, err)
		}
		if _, err := io.ReadFull(resp.Body, make([]byte, 16)); err != nil {
			t.Fatalf("slow reader %d: reading the first bytes: %v", i, err)
		}
	}

	// The others, while the forty stall: pages anywhere in the
	// collection, a short list, an append.
	for round := range 20 {
		for _, call := range []struct{ method, path string }{
			{"GET", "/api/messages?page=0&size=20"},
			{"GET", fmt.Sprintf("/api/messages?page=%d&size=10", 100+round)},
			{"GET", "/api/messages?page=149&size=20"},
			{"POST", ""},
		} {
			began := time.Now()
			var status int
			if call.method == "POST" {
				var err error
				if status, err = post(s.base, "beside the slow readers"); err != nil {
					t.Fatal(err)
				}
			} else {
				status = s.do(t, "GET", call.path, "").status
			}
			want := map[string]int{"GET": 200, "POST": 201}[call.method]
			if took := time.Since(began); status != want || took > queryTimeout {
				t.Fatalf("%s %s beside 40 slow readers: %d after %v; want %d within the query timeout %v",
					call.method, call.path, status, took, want, queryTimeout)
			}
		}
	}

	// A reader that reads the whole list in pieces, with messages appended
	// between the pieces.
	resp, err := client.Get(s.base + "/api/messages")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body strings.Builder
	for {
		_, err := io.CopyN(&body, resp.Body, 256<<10)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("reading the list after %d bytes: %v", body.Len(), err)
		}
		if status, err := post(s.base, "appended while the list is read"); err != nil || status != 201 {
			t.Fatalf("POST while the list is read: %d %v", status, err)
		}
	}
	var got []struct{ Text string }
	if err := json.Unmarshal([]byte(body.String()), &got); err != nil {
		t.Fatalf("the list read in pieces is not JSON (%d bytes): %v", body.Len(), err)
	}
	appendedBefore := 20 // the POSTs beside the slow readers
	if len(got) != n+appendedBefore {
		t.Fatalf("the list read in pieces holds %d messages, want the %d there were when it began", len(got), n+appendedBefore)
	}
	for i, m := range got {
		want := "beside the slow readers"
		if i < n {
			want = strings.ReplaceAll(fmt.Sprintf("%*d", size, i), " ", ".")
		}
		if m.Text != want {
			t.Fatalf("message %d of the list read in pieces is %.20q…, want %.20q…", i, m.Text, want)
		}
	}
}

// fillCollection appends n messages of size bytes to the collection in
// the database of url, in one statement: message i is i, left-padded with
// dots to size.
func fillCollection(t *testing.T, url string, n, size int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, fmt.Sprintf(
		"SELECT FROM greeter_append_messages(array(SELECT convert_to(lpad(g::text, %d, '.'), 'UTF8') FROM generate_series(0, %d) g), 0, 0)", size, n-1)); err != nil {
		t.Fatal(err)
	}
}

// postCollection posts, one after the other, the messages that
// fillCollection appends.
func postCollection(t *testing.T, base string, n, size int) {
	t.Helper()
	for i := range n {
		if status, err := post(base, strings.ReplaceAll(fmt.Sprintf("%*d", size, i), " ", ".")); err != nil || status != 201 {
			t.Fatalf("POST of message %d: %d %v", i, status, err)
		}
	}
}
