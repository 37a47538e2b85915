package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/domain/outage"
	"github.com/springport/greeter/framework/dispatch"
)

// Classify gives domain errors their HTTP statuses; it is the only place
// that does. An error it does not know stays a plain 500.
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
	var down *outage.Error
	if errors.As(err, &down) {
		// The cause (an address, a driver's words) is logged, not shown:
		// the client learns what is down. A write that timed out may
		// still reach the engine once the network heals, so the client
		// is not promised that nothing happened.
		return &dispatch.Error{
			Status: http.StatusServiceUnavailable,
			Detail: fmt.Sprintf("%s is unavailable, so the request could not be completed; a change it asked for may or may not have been made.", down.Dependency),
			Err:    err,
		}
	}
	return nil
}
