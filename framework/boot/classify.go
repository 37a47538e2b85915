package boot

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/outage"
)

// classify gives errors their statuses: the starters' translations
// first (App.TranslateErrors), then the service's own classification,
// then the framework's, for an engine that cannot be reached (a session
// store's, or a service store's that returns an *outage.Error).
func classify(service func(error) *dispatch.Error, translators []func(error) error) func(error) *dispatch.Error {
	return func(err error) *dispatch.Error {
		for _, translate := range translators {
			err = translate(err)
		}
		if service != nil {
			if e := service(err); e != nil {
				return e
			}
		}
		var down *outage.Error
		if errors.As(err, &down) {
			// The cause (an address, a driver's words) is logged, not
			// shown: the client learns what is down. A write that timed
			// out may still reach the engine once the network heals, so
			// the client is not promised that nothing happened.
			return &dispatch.Error{
				Status: http.StatusServiceUnavailable,
				Detail: fmt.Sprintf("%s is unavailable, so the request could not be completed; a change it asked for may or may not have been made.", down.Dependency),
				Err:    err,
				// The metrics' exception tag, as Spring's for a database
				// or Redis it cannot reach (CannotGetJdbcConnectionException,
				// RedisConnectionFailureException) is of this class.
				Kind: "DataAccessResourceFailureException",
			}
		}
		return nil
	}
}
