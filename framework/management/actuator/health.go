package actuator

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/springport/greeter/framework/dispatch"
)

// Health statuses, as Spring names them.
const (
	statusUp           = "UP"
	statusOutOfService = "OUT_OF_SERVICE"
	statusDown         = "DOWN"
	statusUnknown      = "UNKNOWN"
)

// statusOrder is Spring's aggregation order: a report's status is the
// first of these that any of its components has.
var statusOrder = []string{statusDown, statusOutOfService, statusUp, statusUnknown}

// aggregate returns the status of a report whose components have these
// statuses; UNKNOWN when there are none.
func aggregate(statuses []string) string {
	first := len(statusOrder) - 1
	for _, s := range statuses {
		if i := slices.Index(statusOrder, s); i >= 0 && i < first {
			first = i
		}
	}
	return statusOrder[first]
}

// Indicator checks one dependency of a service, such as a database: a
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

// Names of the components that are not dependencies: the service's own
// states, which the liveness and readiness groups report, as Spring's
// availability indicators do.
const (
	livenessState  = "livenessState"
	readinessState = "readinessState"
)

// Names of the built-in groups, the Kubernetes probes.
const (
	livenessGroup  = "liveness"
	readinessGroup = "readiness"
)

// health is a report in Spring's shape: a component's, with its
// details, or a group's, with its components; the root report lists the
// groups there are too.
type health struct {
	Status     string            `json:"status"`
	Details    map[string]any    `json:"details,omitempty"`
	Components map[string]health `json:"components,omitempty"`
	Groups     []string          `json:"groups,omitempty"`
}

// StatusCode makes a report that is DOWN or OUT_OF_SERVICE a 503 that
// keeps its body, as Spring maps them; UP and UNKNOWN are 200.
func (h health) StatusCode() int {
	if h.Status == statusDown || h.Status == statusOutOfService {
		return http.StatusServiceUnavailable
	}
	return http.StatusOK
}

// HealthDisplay is what /actuator/health shows beyond the overall status:
// management.endpoint.health.show-components and show-details, each
// "never", "always" or "when-authorized": shown to a request that
// Authorized says yes to (with security on, an authenticated principal
// that holds one of management.endpoint.health.roles, or any when none
// are set, as in Spring); never when Authorized is nil.
type HealthDisplay struct {
	ShowComponents string
	ShowDetails    string
	Authorized     func(context.Context) bool
}

// shows reports whether a show-* setting shows to the request of ctx.
func (d HealthDisplay) shows(ctx context.Context, setting string) bool {
	return setting == "always" || setting == "when-authorized" && d.Authorized != nil && d.Authorized(ctx)
}

// healthGroup is a named subset of the components, reported on its own
// at /actuator/health/{group}.
type healthGroup struct {
	members []string
	// dependenciesOutOfService reports a member that is DOWN as
	// OUT_OF_SERVICE: readiness, where a dependency's failure takes
	// traffic away, is not the service's own failure (still a 503).
	dependenciesOutOfService bool
	// statusOnly shows the group's status alone, whatever show-components
	// and show-details say, and no member on its own path: the probe
	// groups that hold their state alone, as Spring Boot's
	// (AvailabilityProbesHealthEndpointGroup) show nothing else. A
	// readiness group with the service's dependencies shows them, as
	// Spring shows one configured to include them.
	statusOnly bool
}

// healthEndpoint is everything /actuator/health reports.
type healthEndpoint struct {
	probes  *Probes
	checks  map[string]func(context.Context) health // every component, by name
	root    []string                                // the components of the root report
	groups  map[string]healthGroup
	display HealthDisplay
}

// showComponents and showDetails say what the request of ctx is shown.
// As in Spring, details shown mean components shown too.
func (h *healthEndpoint) showComponents(ctx context.Context) bool {
	return h.display.shows(ctx, h.display.ShowComponents) || h.showDetails(ctx)
}

func (h *healthEndpoint) showDetails(ctx context.Context) bool {
	return h.display.shows(ctx, h.display.ShowDetails)
}

func newHealthEndpoint(opts Options) *healthEndpoint {
	p := opts.Probes
	if p == nil {
		p = NewProbes()
	}
	h := &healthEndpoint{
		probes:  p,
		checks:  map[string]func(context.Context) health{},
		display: opts.HealthDisplay,
	}
	h.checks["ping"] = func(context.Context) health { return health{Status: statusUp} }
	h.checks["diskSpace"] = opts.DiskSpace.check
	if opts.SSL.Health && opts.SSL.Bundles != nil {
		h.checks[sslName] = opts.SSL.health // ssl.go
	}
	var dependencies []string
	for _, ind := range p.indicators {
		h.checks[ind.Name] = ind.health
		dependencies = append(dependencies, ind.Name)
	}
	h.root = slices.Sorted(maps.Keys(h.checks))
	h.checks[livenessState] = func(context.Context) health { return health{Status: statusUp} }
	h.checks[readinessState] = func(context.Context) health { return health{Status: p.readinessState()} }
	h.groups = map[string]healthGroup{
		livenessGroup: {members: []string{livenessState}, statusOnly: true},
		readinessGroup: {members: append([]string{readinessState}, dependencies...), dependenciesOutOfService: true,
			statusOnly: len(dependencies) == 0},
	}
	for name, members := range opts.HealthGroups {
		if slices.Contains(members, "*") {
			members = h.root
		}
		h.groups[name] = healthGroup{members: members}
	}
	return h
}

// CheckHealthGroups reports a user's group that includes a component
// that does not exist, as Spring refuses to start with one
// (management.endpoint.health.validate-group-membership): a misspelt
// "dB" would leave a probe reporting UP whatever the database does.
func CheckHealthGroups(opts Options) error {
	h := newHealthEndpoint(opts)
	for _, name := range slices.Sorted(maps.Keys(opts.HealthGroups)) {
		for _, m := range opts.HealthGroups[name] {
			if _, ok := h.checks[m]; !ok && m != "*" {
				return &HealthGroupError{Key: "management.endpoint.health.group." + name + ".include",
					Reason: fmt.Sprintf("no health component is named %q; there are %s", m, strings.Join(slices.Sorted(maps.Keys(h.checks)), ", "))}
			}
		}
	}
	return nil
}

// HealthGroupError is a health group that CheckHealthGroups refuses: the
// setting that declares it, and why. The caller knows where the setting
// came from, and reports that too.
type HealthGroupError struct {
	Key    string // management.endpoint.health.group.<name>.include
	Reason string
}

func (e *HealthGroupError) Error() string { return e.Key + ": " + e.Reason }

func (ind Indicator) health(ctx context.Context) health {
	details, err := ind.Check(ctx)
	if err != nil {
		return health{Status: statusDown, Details: map[string]any{"error": err.Error()}}
	}
	return health{Status: statusUp, Details: details}
}

// check runs the named components at once and reports each. One that
// has not answered when checkTimeout is up is reported DOWN then, and
// left to finish on its own: a driver may take longer than its context
// to give up.
func (h *healthEndpoint) check(ctx context.Context, names []string) map[string]health {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	type result struct {
		name   string
		health health
	}
	results := make(chan result, len(names))
	for _, name := range names {
		go func() { results <- result{name, h.checks[name](ctx)} }()
	}
	components := make(map[string]health, len(names))
	for range names {
		select {
		case r := <-results:
			components[r.name] = r.health
		case <-ctx.Done():
			for _, name := range names {
				if _, ok := components[name]; !ok {
					components[name] = health{Status: statusDown,
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

// report aggregates components into a report, showing them as the
// display settings say. extra are statuses that count without being
// shown.
func (h *healthEndpoint) report(ctx context.Context, components map[string]health, extra ...string) health {
	statuses := extra
	for _, c := range components {
		statuses = append(statuses, c.Status)
	}
	r := health{Status: aggregate(statuses)}
	if h.showComponents(ctx) {
		for name, c := range components {
			components[name] = h.shown(ctx, c)
		}
		r.Components = components
	}
	return r
}

// shown is c with its details when the display settings show them.
func (h *healthEndpoint) shown(ctx context.Context, c health) health {
	if !h.showDetails(ctx) {
		c.Details = nil
	}
	return c
}

// handleHealth answers /actuator/health: every component aggregated,
// with the service's own readiness, so that a shutting-down instance is
// OUT_OF_SERVICE here too, and the names of the groups.
func (h *healthEndpoint) handleHealth(r *dispatch.Request) (health, error) {
	report := h.report(r.Context(), h.check(r.Context(), h.root), h.probes.readinessState())
	report.Groups = slices.Sorted(maps.Keys(h.groups))
	return report, nil
}

var healthPath = dispatch.Path[string]("path").Describe("a health group, a component, or a group's component: readiness, db, readiness/db")

// handleHealthPath answers /actuator/health/{group}, /{component} and
// /{group}/{component}. As in Spring, a group is always shown, while a
// component is shown only where components are (show-components): a
// component hidden in the root report is hidden on its own path too.
func (h *healthEndpoint) handleHealthPath(r *dispatch.Request) (health, error) {
	path := healthPath.Get(r)
	first, rest, nested := strings.Cut(path, "/")
	if g, ok := h.groups[first]; ok {
		if !nested {
			return h.groupReport(r.Context(), g), nil
		}
		if !g.statusOnly && h.showComponents(r.Context()) && slices.Contains(g.members, rest) {
			return h.shown(r.Context(), h.check(r.Context(), []string{rest})[rest]), nil
		}
	} else if !nested && h.showComponents(r.Context()) && slices.Contains(h.root, first) {
		return h.shown(r.Context(), h.check(r.Context(), []string{first})[first]), nil
	}
	return health{}, &dispatch.Error{Status: http.StatusNotFound, Detail: "No health component or group is named '" + dispatch.Clip(path) + "'."}
}

// groupReport reports the members of g, aggregated.
func (h *healthEndpoint) groupReport(ctx context.Context, g healthGroup) health {
	r := h.report(ctx, h.check(ctx, g.members))
	if g.dependenciesOutOfService && r.Status == statusDown {
		r.Status = statusOutOfService
	}
	if g.statusOnly {
		r.Components = nil
	}
	return r
}

func healthRoutes(base string, opts Options) []dispatch.Route {
	h := newHealthEndpoint(opts)
	return []dispatch.Route{
		{Method: "GET", Pattern: base + "/health", Produces: jsonTypes, Errors: []int{http.StatusServiceUnavailable}, Handler: dispatch.Returns(inVersion(h.handleHealth))},
		{Method: "GET", Pattern: base + "/health/{path...}", Produces: jsonTypes, Inputs: []dispatch.Input{healthPath},
			Errors: []int{http.StatusNotFound, http.StatusServiceUnavailable}, Handler: dispatch.Returns(inVersion(h.handleHealthPath))},
	}
}

// inVersion answers a client that asked for Spring's v2 actuator type in
// v2's shape, where a group's members are under "details", as Spring Boot
// 2.x wrote them; v3 and plain JSON get "components".
func inVersion(handle func(*dispatch.Request) (health, error)) func(*dispatch.Request) (health, error) {
	return func(r *dispatch.Request) (health, error) {
		h, err := handle(r)
		if err == nil && strings.HasPrefix(r.ResponseType(), actuatorV2) {
			h = h.v2()
		}
		return h, err
	}
}

// v2 is the report in v2's shape.
func (h health) v2() health {
	if h.Components == nil {
		return h
	}
	h.Details = make(map[string]any, len(h.Components))
	for name, c := range h.Components {
		h.Details[name] = c.v2()
	}
	h.Components = nil
	return h
}
