package actuator

import (
	"net/http"
	"sync/atomic"

	"github.com/springport/greeter/framework/dispatch"
)

// Probes holds the state that the health groups report: liveness is UP
// while the process serves at all; readiness turns OUT_OF_SERVICE as soon
// as a graceful shutdown begins, so that a load balancer stops sending
// traffic before connections close.
type Probes struct {
	refusing atomic.Bool
}

// NewProbes returns probes that report ready.
func NewProbes() *Probes { return &Probes{} }

// RefuseTraffic marks the service as no longer ready.
func (p *Probes) RefuseTraffic() { p.refusing.Store(true) }

func (p *Probes) readiness() string {
	if p.refusing.Load() {
		return "OUT_OF_SERVICE"
	}
	return "UP"
}

func (p *Probes) liveness() string { return "UP" }

// overall is the health of the whole service: its readiness, since it has
// no other indicators.
func (p *Probes) overall() string { return p.readiness() }

// health is a health report, in Spring's shape; anything but UP answers
// 503, as Spring maps DOWN and OUT_OF_SERVICE.
type health struct {
	Status string `json:"status"`
}

// StatusCode makes a report that is not UP a 503 that keeps its body.
func (h health) StatusCode() int {
	if h.Status == "UP" {
		return http.StatusOK
	}
	return http.StatusServiceUnavailable
}

func handleHealth(status func() string) func(*dispatch.Request) (health, error) {
	return func(*dispatch.Request) (health, error) { return health{Status: status()}, nil }
}
