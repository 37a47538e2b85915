package actuator

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
)

// /actuator/loggers lists the service's loggers with their levels, and
// /actuator/loggers/{name} reads or changes one logger's, or one group's,
// on the running instance (see package logging for the hierarchy).
//
// Unlike Spring over Logback, which creates a logger for any name it is
// asked to set, a name that is neither a logger nor a group is a 404 for
// POST as for GET: every logger of the service exists from start-up, so
// a level for another name could change nothing, and creating names on
// request would let a client grow the list without bound.

var loggerName = dispatch.Path[string]("name")

// loggerLevels is a logger in Spring's shape. configuredLevel is left
// out when the logger inherits its level, as Spring leaves out nulls.
type loggerLevels struct {
	ConfiguredLevel string `json:"configuredLevel,omitempty"`
	EffectiveLevel  string `json:"effectiveLevel"`
}

// groupLevels is a group in Spring's shape.
type groupLevels struct {
	ConfiguredLevel string   `json:"configuredLevel,omitempty"`
	Members         []string `json:"members"`
}

type loggersDescriptor struct {
	Levels  []string                `json:"levels"`
	Loggers map[string]loggerLevels `json:"loggers"` // JSON sorts the keys: ROOT, in capitals, comes first
	Groups  map[string]groupLevels  `json:"groups"`
}

// loggerOrGroup is what /actuator/loggers/{name} answers: a logger's
// levels, or a group's level and members.
type loggerOrGroup struct {
	ConfiguredLevel string   `json:"configuredLevel,omitempty"`
	EffectiveLevel  string   `json:"effectiveLevel,omitempty"`
	Members         []string `json:"members,omitempty"`
}

// levelChange is the body of POST /actuator/loggers/{name}: a level, or
// null (or nothing, or "") to reset it.
type levelChange struct {
	ConfiguredLevel *string `json:"configuredLevel"`
	level           *logging.Level
}

// Validate reads the level, so that a bad one is a 400 naming the field.
func (c *levelChange) Validate() error {
	if c.ConfiguredLevel == nil || *c.ConfiguredLevel == "" {
		return nil
	}
	l, err := logging.ParseLevel(*c.ConfiguredLevel)
	if err != nil {
		return fmt.Errorf("configuredLevel %q: %w", dispatch.Clip(*c.ConfiguredLevel), err)
	}
	c.level = &l
	return nil
}

func loggersRoutes(base string, loggers *logging.Registry) []dispatch.Route {
	return []dispatch.Route{
		{Method: "GET", Pattern: base + "/loggers", Produces: jsonTypes, Handler: dispatch.Returns(handleLoggers(loggers))},
		{Method: "GET", Pattern: base + "/loggers/{name}", Produces: jsonTypes, Errors: []int{http.StatusNotFound}, Inputs: []dispatch.Input{loggerName}, Handler: dispatch.Returns(handleLogger(loggers))},
		{Method: "POST", Pattern: base + "/loggers/{name}", Consumes: jsonTypes, Status: http.StatusNoContent, Errors: []int{http.StatusNotFound}, Inputs: []dispatch.Input{loggerName}, Handler: dispatch.Accepts(handleSetLogger(loggers))},
	}
}

func handleLoggers(loggers *logging.Registry) func(*dispatch.Request) (loggersDescriptor, error) {
	return func(*dispatch.Request) (loggersDescriptor, error) {
		d := loggersDescriptor{Levels: logging.Levels(), Loggers: map[string]loggerLevels{}, Groups: map[string]groupLevels{}}
		for _, l := range loggers.Loggers() {
			d.Loggers[l.Name] = loggerLevels{ConfiguredLevel: levelName(l.Configured), EffectiveLevel: l.Effective.String()}
		}
		for _, g := range loggers.Groups() {
			d.Groups[g.Name] = groupLevels{ConfiguredLevel: levelName(g.Configured), Members: g.Members}
		}
		return d, nil
	}
}

func handleLogger(loggers *logging.Registry) func(*dispatch.Request) (loggerOrGroup, error) {
	return func(r *dispatch.Request) (loggerOrGroup, error) {
		name := loggerName.Get(r)
		// A group first, as Spring looks it up.
		if g, ok := loggers.LookupGroup(name); ok {
			return loggerOrGroup{ConfiguredLevel: levelName(g.Configured), Members: g.Members}, nil
		}
		if l, ok := loggers.LookupLogger(name); ok {
			return loggerOrGroup{ConfiguredLevel: levelName(l.Configured), EffectiveLevel: l.Effective.String()}, nil
		}
		return loggerOrGroup{}, unknownLogger(name)
	}
}

func handleSetLogger(loggers *logging.Registry) func(*dispatch.Request, levelChange) error {
	return func(r *dispatch.Request, c levelChange) error {
		name := loggerName.Get(r)
		if err := loggers.Set(name, c.level); errors.Is(err, logging.ErrUnknown) {
			return unknownLogger(name)
		} else if err != nil {
			return err
		}
		return nil
	}
}

func unknownLogger(name string) error {
	return &dispatch.Error{Status: http.StatusNotFound, Detail: "No logger or logger group is named '" + dispatch.Clip(name) + "'."}
}

// levelName is a configured level as the endpoint shows it: empty, and so
// left out, when there is none.
func levelName(l *logging.Level) string {
	if l == nil {
		return ""
	}
	return l.String()
}
