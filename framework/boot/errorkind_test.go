package boot_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/outage"
)

// linkTakenError is a service's own kind of error.
type linkTakenError struct{}

func (linkTakenError) Error() string { return "the code is taken" }

var errStoreFull = errors.New("the store is full")

// TestExceptionTagNamesTheKind: /actuator/prometheus tags server errors
// by their kind: the service's error type, the Kind its Classify gives,
// the framework's for an outage, and RuntimeException for an error that
// nothing names; never errorString or the error's text.
func TestExceptionTagNamesTheKind(t *testing.T) {
	t.Parallel()
	fails := func(err error) dispatch.Handler {
		return dispatch.Runs(func(*dispatch.Request) error { return err })
	}
	svc := boot.Service[struct{}]{Name: "links",
		Classify: func(err error) *dispatch.Error {
			if errors.Is(err, errStoreFull) {
				return &dispatch.Error{Status: http.StatusInsufficientStorage, Detail: "Full.", Kind: "StoreFullException"}
			}
			return nil
		},
		Start: func(_ context.Context, app *boot.App, _ struct{}) error {
			app.Routes(
				dispatch.Route{Method: "GET", Pattern: "/plain", Handler: fails(errors.New("boom"))},
				dispatch.Route{Method: "GET", Pattern: "/taken", Handler: fails(linkTakenError{})},
				dispatch.Route{Method: "GET", Pattern: "/full", Handler: fails(errStoreFull)},
				dispatch.Route{Method: "GET", Pattern: "/down", Handler: fails(&outage.Error{Dependency: "PostgreSQL", Err: errors.New("dial tcp: refused")})},
			)
			return nil
		}}
	s := boottest.Start(t, svc, []string{exposeAll}, nil)
	for _, path := range []string{"/plain", "/taken", "/full", "/down"} {
		send(t, nil, "GET", s.URL+path, "")
	}
	body := send(t, nil, "GET", s.URL+"/actuator/prometheus", "").body
	for _, want := range []string{
		`http_server_requests_seconds_count{error="RuntimeException",exception="RuntimeException",method="GET",outcome="SERVER_ERROR",status="500",uri="/plain"} 1`,
		`http_server_requests_seconds_count{error="linkTakenError",exception="linkTakenError",method="GET",outcome="SERVER_ERROR",status="500",uri="/taken"} 1`,
		`http_server_requests_seconds_count{error="StoreFullException",exception="StoreFullException",method="GET",outcome="SERVER_ERROR",status="507",uri="/full"} 1`,
		`http_server_requests_seconds_count{error="DataAccessResourceFailureException",exception="DataAccessResourceFailureException",method="GET",outcome="SERVER_ERROR",status="503",uri="/down"} 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/actuator/prometheus lacks %s", want)
		}
	}
	if strings.Contains(body, "errorString") {
		t.Errorf("/actuator/prometheus names a Go runtime type:\n%s", body)
	}
}
