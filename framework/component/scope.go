package component

import "fmt"

// Scope is a component's lifecycle: which consumers share one instance.
type Scope int

const (
	// Singleton is one instance for the whole application, created at
	// start-up. It is the default.
	Singleton Scope = iota
	// Prototype is a new instance for every consumer and every resolution; a
	// consumer built at start-up keeps the one it got.
	Prototype
	// Request is one instance per HTTP request, released when it ends.
	Request
	// Session is one instance per HTTP session, released when the session
	// expires or is invalidated.
	Session
	// Application is one instance for the running application: the same
	// lifetime as Singleton, kept apart in listings as Spring does.
	Application
	// WebSocket is one instance per websocket connection, released when it
	// closes.
	WebSocket
)

var scopeNames = [...]string{"singleton", "prototype", "request", "session", "application", "websocket"}

func (s Scope) String() string {
	if s < 0 || int(s) >= len(scopeNames) {
		return fmt.Sprintf("Scope(%d)", int(s))
	}
	return scopeNames[s]
}

// lifetime orders the scopes that hold instances: a component may depend
// directly only on components that live at least as long as it does.
// Prototype has no lifetime of its own; it lives as long as its consumer.
func (s Scope) lifetime() int {
	switch s {
	case Singleton, Application:
		return 4
	case Session:
		return 3
	case WebSocket:
		return 2
	case Request:
		return 1
	}
	return 0
}
