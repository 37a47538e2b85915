// Package outage names the one failure that every adapter to a
// service's dependencies (a database, a cache, a session store) shares:
// the dependency that holds the state cannot be reached now. The request
// may succeed later, without anything being changed, so callers answer it
// as "try again" (503 Service Unavailable) rather than as a fault of the
// service (500). An adapter returns an *Error; callers find it with
// errors.As.
package outage

import "fmt"

// Error reports that Dependency could not be reached, or did not answer
// in time. Err is what the adapter saw; it is for logs, not for clients.
type Error struct {
	Dependency string // what is unavailable, as an operator names it: "PostgreSQL", "Redis"
	Err        error
}

func (e *Error) Error() string { return fmt.Sprintf("%s is unavailable: %v", e.Dependency, e.Err) }

func (e *Error) Unwrap() error { return e.Err }
