package redisstore

// RESP2, the protocol by which a client talks to Redis
// (https://redis.io/docs/latest/develop/reference/protocol-spec/).
//
// A command is an array of bulk strings: "*<count>\r\n", then for each
// argument "$<length>\r\n<bytes>\r\n". Redis answers each command with one
// reply, whose first byte says its type:
//
//	+OK\r\n                 simple string: a line of text
//	-ERR message\r\n        error: the command failed; its first word is a code
//	:42\r\n                 integer
//	$5\r\nhello\r\n         bulk string: a length, then that many bytes
//	$-1\r\n                 null bulk string: no value (HGET of a missing field)
//	*2\r\n:1\r\n:2\r\n      array: a count, then that many replies, of any type
//	*-1\r\n                 null array
//
// Lengths and counts come from the server, so the reader bounds them: a
// broken or hostile server must not make the client allocate more than the
// bytes it actually sends, nor recurse without end.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

const (
	// maxBulk is the largest bulk string read: Redis's own bound on a
	// string (proto-max-bulk-len's default).
	maxBulk = 512 << 20
	// maxArray is the largest array count read, Redis's own bound on the
	// arguments of a command.
	maxArray = 1<<31 - 1
	// maxDepth bounds the nesting of arrays; Redis's replies nest a few
	// levels at most.
	maxDepth = 32
	// bulkUpFront and arrayUpFront are the largest bulk string and array
	// allocated at their declared size before their data arrives; longer
	// ones grow as the data does.
	bulkUpFront  = 64 << 10
	arrayUpFront = 1 << 10
)

// replyError is an error reply: the server understood the command and
// refused it ("ERR wrong number of arguments", "NOSCRIPT No matching
// script", "LOADING Redis is loading the dataset in memory"). The stream
// stays in step: the connection may serve the next command.
type replyError string

func (e replyError) Error() string { return string(e) }

// errProtocol is a reply that breaks the protocol; the connection that
// read it cannot be trusted with another command.
var errProtocol = errors.New("redis: protocol error")

// writeCommand writes args as one command. An argument is a string, a
// []byte or an int64 (written in decimal, as Redis expects numbers); any
// other type is an error.
//
// Numbers are formatted into the writer's free buffer (AvailableBuffer),
// and so written without a copy or an allocation.
func writeCommand(w *bufio.Writer, args ...any) error {
	w.WriteByte('*')
	w.Write(strconv.AppendInt(w.AvailableBuffer(), int64(len(args)), 10))
	w.WriteString("\r\n")
	for _, arg := range args {
		switch arg := arg.(type) {
		case string:
			writeBulkHeader(w, len(arg))
			w.WriteString(arg)
		case []byte:
			writeBulkHeader(w, len(arg))
			w.Write(arg)
		case int64:
			// Formatted twice, for the header's length and then into the
			// buffer: a local array given to Write would escape to the heap.
			var digits [20]byte
			n := len(strconv.AppendInt(digits[:0], arg, 10))
			writeBulkHeader(w, n)
			w.Write(strconv.AppendInt(w.AvailableBuffer(), arg, 10))
		default:
			// A mistake of this package's, refused rather than panicking:
			// the caller discards the connection, half a command and all,
			// and frees its place in the pool.
			return fmt.Errorf("redis: a command argument of type %T", arg)
		}
		w.WriteString("\r\n")
	}
	// bufio.Writer keeps its first error and returns it from every call.
	_, err := w.Write(nil)
	return err
}

// writeBulkHeader writes the "$<length>\r\n" of a bulk string of n bytes.
func writeBulkHeader(w *bufio.Writer, n int) {
	w.WriteByte('$')
	w.Write(strconv.AppendInt(w.AvailableBuffer(), int64(n), 10))
	w.WriteString("\r\n")
}

// readReply reads one reply. It returns a string for a simple string, a
// replyError for an error, an int64 for an integer, a []byte for a bulk
// string, a []any for an array and nil for a null bulk string or array.
// An error reply nested in an array is an element like any other; at the
// top it is a value too: the caller decides what it means.
func readReply(r *bufio.Reader) (any, error) {
	return readReplyAt(r, 0)
}

func readReplyAt(r *bufio.Reader, depth int) (any, error) {
	line, err := readLine(r)
	if err != nil {
		return nil, err
	}
	if len(line) == 0 {
		return nil, fmt.Errorf("%w: an empty line", errProtocol)
	}
	kind, rest := line[0], line[1:]
	switch kind {
	case '+':
		return string(rest), nil
	case '-':
		return replyError(rest), nil
	case ':':
		n, err := strconv.ParseInt(string(rest), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: integer %q", errProtocol, rest)
		}
		return n, nil
	case '$':
		n, err := length(rest, maxBulk)
		if err != nil || n < 0 {
			return nil, err
		}
		data, err := readBulk(r, n)
		if err != nil {
			return nil, err
		}
		return data, nil
	case '*':
		n, err := length(rest, maxArray)
		if err != nil || n < 0 {
			return nil, err
		}
		if depth == maxDepth {
			return nil, fmt.Errorf("%w: arrays nested deeper than %d", errProtocol, maxDepth)
		}
		elems := make([]any, 0, min(n, arrayUpFront))
		for range n {
			elem, err := readReplyAt(r, depth+1)
			if err != nil {
				return nil, unexpectedEOF(err)
			}
			elems = append(elems, elem)
		}
		return elems, nil
	}
	return nil, fmt.Errorf("%w: a reply of unknown type %q", errProtocol, kind)
}

// readLine reads a line up to its "\r\n", and returns it without them.
// The line lives in r's buffer until the next read: a line longer than
// the buffer is a protocol error, as no reply of Redis needs one.
func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, fmt.Errorf("%w: a line longer than %d bytes", errProtocol, r.Size())
	case err == io.EOF && len(line) > 0:
		return nil, io.ErrUnexpectedEOF
	case err != nil:
		return nil, err
	}
	line, ok := bytes.CutSuffix(line, []byte("\r\n"))
	if !ok {
		return nil, fmt.Errorf("%w: a line ending in \\n without \\r", errProtocol)
	}
	return line, nil
}

// length parses the length of a bulk string or the count of an array: -1
// for null, else 0 to limit.
func length(digits []byte, limit int) (int, error) {
	n, err := strconv.ParseInt(string(digits), 10, 64)
	if err != nil || n < -1 || n > int64(limit) {
		return 0, fmt.Errorf("%w: length %q (the limit is %d)", errProtocol, digits, limit)
	}
	return int(n), nil
}

// readBulk reads the n bytes of a bulk string and the "\r\n" after them.
// A short string is read into a buffer of its size; a long one into a
// buffer that grows as its bytes arrive, so that a length the server
// declares but does not send costs nothing.
func readBulk(r *bufio.Reader, n int) ([]byte, error) {
	var data []byte
	if n+2 <= bulkUpFront {
		data = make([]byte, n+2)
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, unexpectedEOF(err)
		}
	} else {
		var buf bytes.Buffer
		if _, err := io.CopyN(&buf, r, int64(n)+2); err != nil {
			return nil, unexpectedEOF(err)
		}
		data = buf.Bytes()
	}
	data, ok := bytes.CutSuffix(data, []byte("\r\n"))
	if !ok {
		return nil, fmt.Errorf("%w: a bulk string longer than its declared %d bytes", errProtocol, n)
	}
	return data, nil
}

// unexpectedEOF turns the end of the stream within a reply into
// io.ErrUnexpectedEOF: the reply was cut short.
func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
