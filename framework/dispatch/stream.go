package dispatch

import (
	"encoding/xml"
	"iter"
	"net/http"
	"reflect"
)

// Stream is a list result that the dispatcher writes element by element,
// as Items yields them, rather than encoding the whole list before
// sending it: memory per response is bounded by a buffer of flushAt bytes
// and one element, not by the list. A list that fits in the buffer is
// sent as a Returns result would be, with its Content-Length.
type Stream[T any] struct {
	// Items yields the list's elements in order, or an error that ends
	// them. An error before the first flushAt bytes are encoded is
	// answered as a handler's error is; one after them ends the
	// response early (the connection is closed, as when a handler panics
	// halfway), since its status line has gone.
	Items iter.Seq2[T, error]
	// Header is sent with a successful response, before its body; nil
	// for none. A failure's problem document does not carry it.
	Header http.Header
	// Close, when set, is called once the response is written or
	// abandoned, so that what Items reads from can be released.
	Close func()
}

// flushAt is how many encoded bytes a Stream buffers before sending them:
// enough that a long list is sent in few large writes.
const flushAt = 32 << 10

// Streams builds a handler that takes no body and answers with a list
// written as a Stream. Its result is described, negotiated and written as
// a []T: the same JSON array, or XML <List> of <item>s, that Returns
// would write for the whole slice.
func Streams[T any](fn func(r *Request) (Stream[T], error)) Handler {
	return Handler{result: reflect.TypeFor[[]T](), run: func(c *call) error {
		s, err := fn(c.req)
		if s.Close != nil {
			defer s.Close()
		}
		if err != nil {
			return err
		}
		return writeStream(c, s)
	}}
}

// writeStream encodes the stream's elements into the call's buffer,
// sending the buffer whenever it passes flushAt. What is left when it
// returns, the execute step sends.
func writeStream[T any](c *call, s Stream[T]) error {
	c.wrote, c.header = true, s.Header
	w := listWriter{c: c}
	if err := w.open(); err != nil {
		return err
	}
	for v, err := range s.Items {
		if err != nil {
			return err
		}
		if err := w.item(v); err != nil {
			return err
		}
		if c.buf.Len() >= flushAt {
			if err := c.flush(); err != nil {
				return err
			}
		}
	}
	return w.close()
}

// listWriter writes a list in the call's negotiated format: a JSON array,
// or the XML document encodeXML writes for a slice.
type listWriter struct {
	c     *call
	xml   *xml.Encoder
	items int
}

var (
	listStart = xml.StartElement{Name: xml.Name{Local: "List"}}
	listItem  = xml.StartElement{Name: xml.Name{Local: "item"}}
)

func (w *listWriter) open() error {
	if w.c.out.format == FormatXML {
		w.xml = xml.NewEncoder(w.c.buf)
		return w.xml.EncodeToken(listStart)
	}
	w.c.buf.WriteByte('[')
	return nil
}

func (w *listWriter) item(v any) error {
	w.items++
	if w.xml != nil {
		if err := w.xml.EncodeElement(v, listItem); err != nil {
			return err
		}
		return w.xml.Flush() // into the buffer, so that its length counts
	}
	if w.items > 1 {
		w.c.buf.WriteByte(',')
	}
	if err := w.c.json.Encode(v); err != nil {
		return err
	}
	w.c.buf.Truncate(w.c.buf.Len() - 1) // Encode's newline
	return nil
}

func (w *listWriter) close() error {
	if w.xml != nil {
		if err := w.xml.EncodeToken(listStart.End()); err != nil {
			return err
		}
		return w.xml.Close()
	}
	w.c.buf.WriteByte(']')
	return nil
}
