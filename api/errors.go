package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/dispatch"
)

// Classify gives greeter's domain errors their HTTP statuses; it is the
// only place that does. An error it does not know it leaves to the
// framework, which answers an engine that cannot be reached
// (*outage.Error) with 503 and anything else with a plain 500.
func Classify(err error) *dispatch.Error {
	var index *message.IndexError
	if errors.As(err, &index) {
		// The original lets the collection's IndexOutOfBoundsException
		// escape, which is a 500; clients written against it expect that.
		return &dispatch.Error{
			Status: http.StatusInternalServerError,
			Detail: fmt.Sprintf("No message at index %d; the collection holds %d.", index.Index, index.Len),
			Err:    err,
		}
	}
	var full *message.LimitError
	if errors.As(err, &full) {
		// 507 (RFC 4918): the request was fine, the store has no room
		// for it. The detail names the setting, so that an operator
		// who sees it knows which bound to raise.
		return &dispatch.Error{Status: http.StatusInsufficientStorage, Detail: limitDetail(full), Err: err}
	}
	return nil
}

// limitDetail says which limit refused a change, and by how much.
func limitDetail(e *message.LimitError) string {
	if e.Limit == message.MaxCount {
		return fmt.Sprintf("Nothing was stored: the collection holds %d messages, the most that app.messages.max-count (%d) allows. Remove some to make room.",
			e.Usage.Count, e.Max)
	}
	return fmt.Sprintf("Nothing was stored: the messages' texts take %d bytes, and %d more would pass app.messages.max-total-size (%d bytes). Remove or shorten some to make room.",
		e.Usage.Bytes, e.Bytes, e.Max)
}
