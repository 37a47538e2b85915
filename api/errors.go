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
		// the client learns what is down, and that trying again may work.
		return &dispatch.Error{
			Status: http.StatusServiceUnavailable,
			Detail: fmt.Sprintf("%s is unavailable; the request was not carried out and may be tried again later.", down.Dependency),
			Err:    err,
		}
	}
	return nil
}
