package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// A variable is read under its exact name from the environment alone: an
// argument or a file with a key of that name, or a relaxed spelling of it,
// sets nothing; empty is unset; a bad value is a SettingError naming the
// variable, masked when it holds a secret; and the variables are not among
// the keys the Binder lists.
func TestBindVariable(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		args:  []string{"--OTEL_SERVICE_NAME=from-argument", "--otel.traces.sampler=from-argument"},
		files: map[string]string{"application.properties": "OTEL_SDK_DISABLED=from-file\n"},
		env: map[string]string{"OTEL_SERVICE_NAME": "from-env", "OTEL_EXPORTER_OTLP_TIMEOUT": "soon",
			"OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer hunter2", "OTEL_EXPORTER_OTLP_COMPRESSION": ""},
	})
	b := NewBinder(env)
	number := func(s string) (int, error) {
		if s != "7" {
			return 0, errors.New("want 7")
		}
		return 7, nil
	}
	if got := BindVariable(b, "OTEL_SERVICE_NAME", "default", String); got != "from-env" {
		t.Errorf("OTEL_SERVICE_NAME = %q, want the environment's", got)
	}
	for _, name := range []string{"OTEL_SDK_DISABLED", "otel.traces.sampler", "OTEL_TRACES_SAMPLER", "OTEL_EXPORTER_OTLP_COMPRESSION"} {
		if got := BindVariable(b, name, "default", String); got != "default" {
			t.Errorf("%s = %q, want the default: only a non-empty variable of that exact name sets it", name, got)
		}
	}
	if got := BindVariable(b, "OTEL_EXPORTER_OTLP_TIMEOUT", 3, number); got != 3 {
		t.Errorf("a bad value gave %d, want the default", got)
	}
	BindVariable(b, "OTEL_EXPORTER_OTLP_HEADERS", "", func(string) (string, error) { return "", errors.New("no") })

	var msgs []string
	for _, e := range b.Err().(interface{ Unwrap() []error }).Unwrap() {
		var se *SettingError
		if !errors.As(e, &se) {
			t.Fatalf("%v is not a *SettingError", e)
		}
		msgs = append(msgs, se.Error())
	}
	want := []string{
		`setting OTEL_EXPORTER_OTLP_TIMEOUT="soon" from environment variable OTEL_EXPORTER_OTLP_TIMEOUT is invalid: want 7`,
		`setting OTEL_EXPORTER_OTLP_HEADERS="******" from environment variable OTEL_EXPORTER_OTLP_HEADERS is invalid: no`,
	}
	if !slices.Equal(msgs, want) {
		t.Errorf("failures:\ngot  %q\nwant %q", msgs, want)
	}
	if strings.Contains(b.Err().Error(), "hunter2") {
		t.Errorf("the failure shows a header's value: %v", b.Err())
	}
	if len(b.Keys()) != 0 {
		t.Errorf("keys %q: variables are not settings, and none is listed", b.Keys())
	}
}
