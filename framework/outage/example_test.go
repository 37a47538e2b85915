package outage_test

import (
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/springport/greeter/framework/outage"
)

// findOrder is an adapter's method: it wraps the failure to reach its
// database in an *outage.Error, naming the database as an operator would.
func findOrder(id int) (string, error) {
	err := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	return "", fmt.Errorf("find order %d: %w", id, &outage.Error{Dependency: "PostgreSQL", Err: err})
}

// A caller finds the outage with errors.As, however deeply it is wrapped,
// and answers "try again later" (503) rather than "something is broken"
// (500). The client is told what is down; the cause is for the logs.
func ExampleError() {
	_, err := findOrder(7)
	var down *outage.Error
	if errors.As(err, &down) {
		fmt.Println(http.StatusServiceUnavailable, down.Dependency+" is unavailable")
	}
	fmt.Println(err)
	// Output:
	// 503 PostgreSQL is unavailable
	// find order 7: PostgreSQL is unavailable: dial tcp: connection refused
}
