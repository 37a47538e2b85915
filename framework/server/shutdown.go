package server

import (
	"time"

	"github.com/springport/greeter/framework/config"
)

// The shutdown settings, with Spring Boot's names (spring. renamed app.,
// as for every spring.* setting of the framework).
const (
	shutdownMode       = "server.shutdown"
	shutdownTimeoutKey = "server.shutdown-timeout"
	shutdownPhase      = "app.lifecycle.timeout-per-shutdown-phase"
)

// bindShutdownMode reads server.shutdown: graceful (Spring Boot 3.5's
// default: requests in flight may finish) or immediate (connections are
// closed at once).
func bindShutdownMode(b *config.Binder) string {
	return config.Bind(b, shutdownMode, "graceful", config.OneOf("graceful", "immediate"), "graceful: requests in flight get server.shutdown-timeout to finish; immediate: connections close at once")
}

// bindShutdownTimeout reads the graceful wait: server.shutdown-timeout,
// the framework's name, or app.lifecycle.timeout-per-shutdown-phase,
// Spring's (spring.lifecycle.timeout-per-shutdown-phase) for the same
// wait. Either may be set; both set to different waits is refused rather
// than one silently losing.
func bindShutdownTimeout(b *config.Binder) time.Duration {
	phase := config.Bind(b, shutdownPhase, 30*time.Second, config.Timeout, "Spring's name for server.shutdown-timeout (spring.lifecycle.*); set one of them")
	timeout := config.Bind(b, shutdownTimeoutKey, phase, config.Timeout, "grace period for requests in flight at shutdown")
	if timeout != phase && b.IsSet(shutdownPhase) {
		b.Refuse(shutdownTimeoutKey, "it and "+shutdownPhase+" name the same wait, and they differ; set one of them")
	}
	return timeout
}
