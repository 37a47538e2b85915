package redisstore

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestWriteCommand(t *testing.T) {
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	if err := writeCommand(w, "HSET", []byte("k\r\n"), int64(-42), ""); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	want := "*4\r\n$4\r\nHSET\r\n$3\r\nk\r\n\r\n$3\r\n-42\r\n$0\r\n\r\n"
	if got := out.String(); got != want {
		t.Errorf("writeCommand wrote %q; want %q", got, want)
	}
}

// TestWriteCommandReadsBack reads a written command back as Redis does:
// as an array of bulk strings.
func TestWriteCommandReadsBack(t *testing.T) {
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	writeCommand(w, "EVALSHA", "abc", int64(1), []byte{0, 255})
	w.Flush()
	got, err := readReply(bufio.NewReader(&out))
	want := []any{[]byte("EVALSHA"), []byte("abc"), []byte("1"), []byte{0, 255}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("read back %#v, %v; want %#v", got, err, want)
	}
}

func TestReadReply(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want any
	}{
		{"+OK\r\n", "OK"},
		{"+\r\n", ""},
		{"-ERR wrong type\r\n", replyError("ERR wrong type")},
		{":42\r\n", int64(42)},
		{":-1\r\n", int64(-1)},
		{"$5\r\nhello\r\n", []byte("hello")},
		{"$4\r\na\r\nb\r\n", []byte("a\r\nb")}, // a bulk string may hold any bytes
		{"$0\r\n\r\n", []byte{}},
		{"$-1\r\n", nil},
		{"*-1\r\n", nil},
		{"*0\r\n", []any{}},
		{"*3\r\n:1\r\n$-1\r\n*-1\r\n", []any{int64(1), nil, nil}},
		{"*2\r\n*2\r\n+a\r\n*1\r\n:1\r\n$1\r\nb\r\n", []any{[]any{"a", []any{int64(1)}}, []byte("b")}},
		{"*2\r\n-NOSCRIPT no\r\n+OK\r\n", []any{replyError("NOSCRIPT no"), "OK"}},
	} {
		r := bufio.NewReader(strings.NewReader(tc.in + "+next\r\n"))
		got, err := readReply(r)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("readReply(%q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
			continue
		}
		// The reply is read to its end, no further: the next one follows.
		if next, err := readReply(r); next != "next" || err != nil {
			t.Errorf("after %q the next reply read is %#v, %v; want \"next\"", tc.in, next, err)
		}
	}
}

func TestReadReplyRefusesMalformed(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want error
	}{
		{"", io.EOF},
		{"+OK", io.ErrUnexpectedEOF},
		{"+OK\n", errProtocol},
		{"\r\n", errProtocol},
		{"?what\r\n", errProtocol},
		{":\r\n", errProtocol},
		{":12ab\r\n", errProtocol},
		{":99999999999999999999\r\n", errProtocol},
		{"$\r\n", errProtocol},
		{"$-2\r\n", errProtocol},
		{"$x\r\n", errProtocol},
		{"$536870913\r\n", errProtocol}, // past Redis's own 512 MiB
		{"$5\r\nhi\r\n", io.ErrUnexpectedEOF},
		{"$2\r\nhello\r\n", errProtocol},
		{"$2\r\nhi", io.ErrUnexpectedEOF},
		{"*-2\r\n", errProtocol},
		{"*2147483648\r\n", errProtocol},
		{"*2\r\n:1\r\n", io.ErrUnexpectedEOF},
		{"*1\r\n$3\r\nab", io.ErrUnexpectedEOF},
		{"*1\r\n?\r\n", errProtocol},
		{strings.Repeat("*1\r\n", maxDepth+1) + ":1\r\n", errProtocol},
		{"+" + strings.Repeat("x", 20<<10) + "\r\n", errProtocol}, // longer than the reader's buffer
	} {
		got, err := readReply(bufio.NewReaderSize(strings.NewReader(tc.in), 16<<10))
		if !errors.Is(err, tc.want) {
			t.Errorf("readReply(%.40q) = %#v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestReadReplyNestsToTheLimit(t *testing.T) {
	in := strings.Repeat("*1\r\n", maxDepth) + ":1\r\n"
	if _, err := readReply(bufio.NewReader(strings.NewReader(in))); err != nil {
		t.Errorf("arrays nested %d deep: %v; want them read", maxDepth, err)
	}
}

// TestHugeDeclaredLengthsAllocateLittle declares the largest bulk string
// and array that the reader accepts, then sends a few bytes: the reader
// must allocate for what arrived, not for what was declared.
func TestHugeDeclaredLengthsAllocateLittle(t *testing.T) {
	for _, in := range []string{
		"$536870912\r\nabc",
		"*2147483647\r\n:1\r\n:2\r\n",
		"*3\r\n$536870912\r\nabc",
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := readReply(bufio.NewReader(strings.NewReader(in)))
		runtime.ReadMemStats(&after)
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("readReply(%q): %v; want the reply cut short", in, err)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
			t.Errorf("readReply(%q) allocated %d bytes for a reply of %d", in, n, len(in))
		}
	}
}

// TestLongBulkGrowsAsItArrives reads a bulk string past the size that is
// allocated up front.
func TestLongBulkGrowsAsItArrives(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 100_000)
	in := "$1000000\r\n" + string(data) + "\r\n"
	got, err := readReply(bufio.NewReader(strings.NewReader(in)))
	if err != nil || !bytes.Equal(got.([]byte), data) {
		t.Errorf("a 1 MB bulk string read back as %d bytes, %v", len(got.([]byte)), err)
	}
}

// FuzzReadReply feeds the reader anything: it must return a reply or an
// error, never panic nor read past the input.
func FuzzReadReply(f *testing.F) {
	for _, seed := range []string{
		"+OK\r\n", "-ERR x\r\n", ":1\r\n", "$3\r\nabc\r\n", "$-1\r\n", "*-1\r\n",
		"*2\r\n*1\r\n:1\r\n$-1\r\n", "$536870912\r\nab", "*2147483647\r\n", "*1\r\n*1\r\n*1\r\n+x\r\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		r := bufio.NewReader(bytes.NewReader(in))
		for range 4 { // several replies, as a pipeline reads them
			reply, err := readReply(r)
			if err != nil {
				if reply != nil {
					t.Fatalf("readReply(%q) = %#v with the error %v", in, reply, err)
				}
				return
			}
		}
	})
}
