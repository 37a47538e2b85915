package config

import (
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestBindPrefixed: a family's keys come from the files and the
// arguments, and from the environment for the names the caller knows;
// each is bound, a bad value reported with its key, and none that is not
// set.
func TestBindPrefixed(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		files: map[string]string{"application.properties": "logging.level.greeter=warn\nlogging.level.other=info\n"},
		args:  []string{"--logging.level.greeter=debug", "--logging.level.bad=LOUD"},
		env:   map[string]string{"LOGGING_LEVEL_GREETER_DISPATCH": "trace", "LOGGING_LEVEL_UNKNOWN": "x"},
	})
	b := NewBinder(env)
	upper := func(s string) (string, error) {
		if s == "LOUD" {
			return "", errors.New("too loud")
		}
		return strings.ToUpper(s), nil
	}
	Bind(b, "logging.level.other", "", upper) // bound on its own: left out
	got := BindPrefixed(b, "logging.level.", []string{"greeter.dispatch", "greeter.redis"}, upper, nil)
	want := map[string]string{"greeter": "DEBUG", "bad": "", "greeter.dispatch": "TRACE"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	var se *SettingError
	if err := b.Err(); !errors.As(err, &se) || se.Value.Key != "logging.level.bad" {
		t.Errorf("Err() = %v, want logging.level.bad reported", err)
	}
	wantKeys := []string{"logging.level.other"}
	for name := range maps.Keys(want) {
		wantKeys = append(wantKeys, "logging.level."+name)
	}
	if keys := slices.Sorted(slices.Values(b.Keys())); !slices.Equal(keys, slices.Sorted(slices.Values(wantKeys))) {
		t.Errorf("bound %v, want %v", keys, wantKeys)
	}
}
