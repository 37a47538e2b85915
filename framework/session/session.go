// Package session says what an HTTP session is to the framework,
// whichever store keeps it: the settings every store reads (how long a
// session lasts, how many are held, which store), and Store, what a
// store gives the application. The stores are its sub-packages: in
// memory (memstore, the default) and in Redis (redisstore, which the
// Redis session starter opens).
package session

import (
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
)

// Settings are the session settings, which the store the application
// opens reads.
type Settings struct {
	StoreType   string        // app.session.store-type: memory, redis
	Timeout     time.Duration // a session idle this long ends
	MaxSessions int           // past it, the least recently used session ends
}

// Store is an HTTP session store that the application keeps its sessions
// in: the component container's session scope lives in it, and its
// counts are reported as Spring Session's meters.
type Store interface {
	component.SessionStore
	Len() int        // sessions held (or followed) now
	Max() int        // server.servlet.session.max-sessions
	Evicted() uint64 // sessions ended early because of Max
	Close() error
}

// Bind reads the session settings, with Spring Boot's and
// Spring Session's names (spring. renamed app.); see the Redis session starter
// for Redis's. As in Spring Session, app.session.timeout (spring.session.timeout)
// wins over server.servlet.session.timeout when set.
func Bind(b *config.Binder) Settings {
	servletTimeout := config.Bind(b, "server.servlet.session.timeout", 30*time.Minute, config.DurationAtLeast(time.Second), "an HTTP session idle this long ends (Redis's expiry with the Redis store)")
	return Settings{
		Timeout:     config.Bind(b, "app.session.timeout", servletTimeout, config.DurationAtLeast(time.Second), "Spring Session's name for the session timeout (spring.session.timeout): wins over server.servlet.session.timeout when set"),
		MaxSessions: config.Bind(b, "server.servlet.session.max-sessions", 100_000, config.IntIn(1, 100_000_000), "sessions held at most; past it one ends: the least recently used whose cookie never came back, else the least recently used (in memory; with Redis, those this process follows)"),
		StoreType:   config.Bind(b, "app.session.store-type", "memory", config.OneOf("memory", "redis"), "memory or redis: where HTTP sessions live"),
	}
}
