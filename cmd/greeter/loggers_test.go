package main

import (
	"slices"
	"testing"
)

// TestGreeterLoggers: greeter's own logger, greeter.postgres, is listed by
// /actuator/loggers beside the framework's, and greeter's group sql sets
// its level. (The framework's loggers are tested in framework/boot.)
func TestGreeterLoggers(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--management.endpoints.web.exposure.include=loggers", "--logging.level.sql=debug"}, nil)
	r := s.do(t, "GET", "/actuator/loggers", "")
	got := decodeJSON[struct {
		Loggers map[string]struct{ ConfiguredLevel, EffectiveLevel string }
		Groups  map[string]struct{ Members []string }
	}](t, r)
	if got.Loggers["greeter.postgres"].EffectiveLevel != "DEBUG" || got.Loggers["greeter.dispatch"].EffectiveLevel != "INFO" ||
		!slices.Equal(got.Groups["sql"].Members, []string{"greeter.postgres"}) {
		t.Errorf("GET /actuator/loggers with logging.level.sql=debug: %s", r.body)
	}
}
