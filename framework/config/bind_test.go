package config

import (
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	t.Parallel()
	parse := URL("redis", "rediss")
	for _, tt := range []struct{ in, want, err string }{
		{"", "", ""},
		{"redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0", ""},
		{"REDISS://user:s3cret@host", "REDISS://user:s3cret@host", ""},
		{"http://host", "", "want a URL that starts with redis:// or rediss://"},
		{"host:6379", "", "want a URL that starts with redis:// or rediss://"},
		{"postgres://user:s3cret@host", "", "want a URL"},
	} {
		got, err := parse(tt.in)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%q:\ngot  %q %v\nwant %q %s", tt.in, got, err, tt.want, tt.err)
		}
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%q: the reason shows the password: %v", tt.in, err)
		}
	}
}

func TestProbability(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]float64{"0": 0, "1": 1, " 0.25 ": 0.25, "1e-1": 0.1} {
		if got, err := Probability(in); err != nil || got != want {
			t.Errorf("%q: got %v %v, want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-0.1", "1.5", "half", "NaN"} {
		if got, err := Probability(in); err == nil {
			t.Errorf("%q: got %v, want an error", in, got)
		}
	}
}

func TestBinderIsSet(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{
		args: []string{"--app.security.user.name=user", "--empty="},
		env:  map[string]string{"SPRING_SECURITY_USER_PASSWORD": "x"},
	})
	b := NewBinder(env)
	for key, want := range map[string]bool{
		"app.security.user.name":     true, // set to what would be the default
		"app.security.user.password": true, // by its spring. twin's variable
		"empty":                      true, // set, to nothing
		"app.security.user.roles":    false,
	} {
		if got := b.IsSet(key); got != want {
			t.Errorf("IsSet(%s) = %t, want %t", key, got, want)
		}
	}
}

func TestBindMeaning(t *testing.T) {
	t.Parallel()
	b := NewBinder(mustLoad(t, loadCase{}))
	Bind(b, "server.port", 8080, Port, "listening port;", "0 picks a free one")
	Bind(b, "server.address", "", String)
	if got := b.Meaning("server.port"); got != "listening port; 0 picks a free one" {
		t.Errorf("Meaning(server.port) = %q", got)
	}
	if got := b.Meaning("server.address"); got != "" {
		t.Errorf("Meaning(server.address) = %q, want none: its binding gave none", got)
	}
}
