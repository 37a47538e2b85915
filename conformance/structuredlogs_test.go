package conformance_test

// Spring Boot's structured log lines (logging.structured.format.console,
// since 3.4) beside greeter's: the oracle for issue 38's ECS, Logstash
// and GELF formats is Spring Boot itself, writing the same line.

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/testing/polltest"
)

// TestStructuredLogsAsSpringWritesThem: greeter and the Spring reference
// application, each started with logging.structured.format.console set
// to ecs, logstash and gelf, write their "Started" line with the same
// members, nested alike, and the same values where the format and the
// application fix them (the schema's versions, the level, its number,
// the thread, the service's name and GELF's host). What differs is named:
// greeter's line carries its listening address as a key-value of its
// own (addr, GELF's _addr); Spring's ECS line has an empty service.node,
// and under Boot 4, logged through commons-logging, a "tags" marker.
func TestStructuredLogsAsSpringWritesThem(t *testing.T) {
	formats := []string{"ecs", "logstash", "gelf"}
	greeter := map[string]map[string]any{}
	for _, format := range formats {
		a := launchGreeter(t, "--logging.structured.format.console="+format)
		a.waitListening(t)
		greeter[format] = startedLine(t, a)
	}
	onlyGreeter := map[string]bool{"addr": true, "_addr": true}
	onlySpring := map[string]bool{"tags": true, "service.node": true}
	fixed := map[string][]string{
		"ecs":      {"ecs.version", "log.level", "process.thread.name", "service.name"},
		"logstash": {"@version", "level", "level_value", "thread_name"},
		"gelf":     {"version", "level", "_level_name", "_process_thread_name", "host"},
	}
	for _, flavour := range springFlavours {
		t.Run(flavour, func(t *testing.T) {
			spring := map[string]*app{}
			for _, format := range formats {
				spring[format] = launchSpring(t, flavour, "--logging.structured.format.console="+format)
			}
			for _, format := range formats {
				spring[format].waitListening(t)
				s, g := members(startedLine(t, spring[format])), members(greeter[format])
				for _, k := range slices.Sorted(maps.Keys(s)) {
					if _, ok := g[k]; !ok && !onlySpring[k] {
						t.Errorf("%s: Spring's Started line has %s (%v), greeter's none", format, k, s[k])
					}
				}
				for _, k := range slices.Sorted(maps.Keys(g)) {
					if _, ok := s[k]; !ok && !onlyGreeter[k] {
						t.Errorf("%s: greeter's Started line has %s (%v), Spring's none", format, k, g[k])
					}
				}
				for _, k := range fixed[format] {
					if s[k] != g[k] {
						t.Errorf("%s: %s is %v in Spring's line, %v in greeter's", format, k, s[k], g[k])
					}
				}
			}
		})
	}
}

// startedLine waits for a's "Started" line, logged once it listens, and
// returns it decoded: a JSON object whose message (GELF's short_message)
// begins "Started ".
func startedLine(t *testing.T, a *app) map[string]any {
	t.Helper()
	var line map[string]any
	polltest.Until(t, time.Minute, a.name+"'s Started line", func() error {
		for l := range strings.Lines(a.log.String()) {
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) != nil {
				continue
			}
			if msg, _ := m["message"].(string); strings.HasPrefix(msg, "Started ") {
				line = m
				return nil
			}
			if msg, _ := m["short_message"].(string); strings.HasPrefix(msg, "Started ") {
				line = m
				return nil
			}
		}
		return errNoStartedLine
	})
	return line
}

var errNoStartedLine = errors.New(`no JSON line whose message begins "Started "`)

// members flattens a line's objects into their paths (log.level), each
// with its value; an empty object is a member of its own.
func members(m map[string]any) map[string]any {
	out := map[string]any{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
				walk(prefix+k+".", sub)
				continue
			}
			out[prefix+k] = v
		}
	}
	walk("", m)
	return out
}
