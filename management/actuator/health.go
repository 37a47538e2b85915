package actuator

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/springport/greeter/framework/dispatch"
)

// Health statuses, as Spring names them, from best to worst.
const (
	statusUp           = "UP"
	statusOutOfService = "OUT_OF_SERVICE"
	statusDown         = "DOWN"
)

// Indicator checks one dependency of the service, such as a database: a
// component of /actuator/health, as Spring's HealthIndicator is.
type Indicator struct {
	// Name is the component's name in the report: "db", "redis".
	Name string
	// Check reports the dependency's details when it answers, and an
	// error when it does not. It must return by ctx's deadline.
	Check func(ctx context.Context) (details map[string]any, err error)
}

// checkTimeout bounds one health check, so that a probe is answered
// before a Kubernetes probe's own timeout (one second by default) would
// count a hung dependency as a dead process.
const checkTimeout = 900 * time.Millisecond

// Probes holds the state that the health groups report: liveness is UP
// while the process serves at all; readiness is OUT_OF_SERVICE as soon as
// a graceful shutdown begins, so that a load balancer stops sending
// traffic before connections close, and while a dependency the service
// needs (its indicators) is down, so that traffic goes to an instance
// that can answer it.
type Probes struct {
	refusing   atomic.Bool
	indicators []Indicator
}

// NewProbes returns probes that report ready while every indicator is
// UP.
func NewProbes(indicators ...Indicator) *Probes { return &Probes{indicators: indicators} }

// RefuseTraffic marks the service as no longer ready.
func (p *Probes) RefuseTraffic() { p.refusing.Store(true) }

// check runs every indicator at once and reports each. An indicator that
// has not answered when checkTimeout is up is reported DOWN then, and
// left to finish on its own: a driver may take longer than its context
// to give up.
func (p *Probes) check(ctx context.Context) map[string]componentHealth {
	if len(p.indicators) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	type result struct {
		name string
		componentHealth
	}
	results := make(chan result, len(p.indicators))
	for _, ind := range p.indicators {
		go func() {
			details, err := ind.Check(ctx)
			if err != nil {
				results <- result{ind.Name, componentHealth{Status: statusDown, Details: map[string]any{"error": err.Error()}}}
				return
			}
			results <- result{ind.Name, componentHealth{Status: statusUp, Details: details}}
		}()
	}
	components := make(map[string]componentHealth, len(p.indicators))
	for range p.indicators {
		select {
		case r := <-results:
			components[r.name] = r.componentHealth
		case <-ctx.Done():
			for _, ind := range p.indicators {
				if _, ok := components[ind.Name]; !ok {
					components[ind.Name] = componentHealth{Status: statusDown,
						Details: map[string]any{"error": "no answer within " + checkTimeout.String()}}
				}
			}
			return components
		}
	}
	return components
}

// readinessState is the readiness the service declares of itself, before
// its dependencies are asked.
func (p *Probes) readinessState() string {
	if p.refusing.Load() {
		return statusOutOfService
	}
	return statusUp
}

// HealthDisplay is what /actuator/health shows beyond the overall status:
// management.endpoint.health.show-components and show-details, each
// "never", "always" or "when-authorized" (treated as never: the service
// has no authentication).
type HealthDisplay struct {
	ShowComponents string
	ShowDetails    string
}

// health is a health report, in Spring's shape; anything but UP answers
// 503, as Spring maps DOWN and OUT_OF_SERVICE.
type health struct {
	Status     string                     `json:"status"`
	Components map[string]componentHealth `json:"components,omitempty"`
}

// componentHealth is one indicator's part of the report.
type componentHealth struct {
	Status  string         `json:"status"`
	Details map[string]any `json:"details,omitempty"`
}

// StatusCode makes a report that is not UP a 503 that keeps its body.
func (h health) StatusCode() int {
	if h.Status == statusUp {
		return http.StatusOK
	}
	return http.StatusServiceUnavailable
}

// worst returns the worse of two statuses.
func worst(a, b string) string {
	rank := map[string]int{statusUp: 0, statusOutOfService: 1, statusDown: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// handleHealth answers /actuator/health: the service's own readiness and
// every indicator, aggregated as Spring aggregates them (the worst
// status wins), with the components and their details shown as display
// says.
func handleHealth(p *Probes, display HealthDisplay) func(*dispatch.Request) (health, error) {
	showComponents := display.ShowComponents == "always" || display.ShowDetails == "always"
	showDetails := display.ShowDetails == "always"
	return func(r *dispatch.Request) (health, error) {
		h := health{Status: p.readinessState()}
		components := p.check(r.Context())
		for _, c := range components {
			h.Status = worst(h.Status, c.Status)
		}
		if showComponents && len(components) > 0 {
			if !showDetails {
				for name, c := range components {
					components[name] = componentHealth{Status: c.Status}
				}
			}
			h.Components = components
		}
		return h, nil
	}
}

// handleReadiness answers the readiness probe: OUT_OF_SERVICE while the
// service shuts down or a dependency is down. A dependency's failure is
// not the service's: readiness takes traffic away, and only an operator,
// not a restart, brings the dependency back.
func handleReadiness(p *Probes) func(*dispatch.Request) (health, error) {
	return func(r *dispatch.Request) (health, error) {
		h := health{Status: p.readinessState()}
		if h.Status != statusUp {
			return h, nil
		}
		for _, c := range p.check(r.Context()) {
			if c.Status != statusUp {
				h.Status = statusOutOfService
			}
		}
		return h, nil
	}
}

// handleLiveness answers the liveness probe: UP while the process serves
// requests at all. Dependencies never count here: restarting the
// process would not bring them back.
func handleLiveness(*dispatch.Request) (health, error) { return health{Status: statusUp}, nil }
