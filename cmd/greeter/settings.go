package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// settings are what the program reads from its arguments and environment.
type settings struct {
	port              int
	readHeaderTimeout time.Duration // a client must finish its headers within this
	readTimeout       time.Duration // … and its whole request within this
	writeTimeout      time.Duration
	idleTimeout       time.Duration // a keep-alive connection is closed after this
	shutdownTimeout   time.Duration // requests in flight get this long at shutdown
}

// defaults are the settings' values when nothing overrides them.
var defaults = map[string]string{
	"server.port":                "8080",
	"server.read-header-timeout": "5s",
	"server.read-timeout":        "30s",
	"server.write-timeout":       "30s",
	"server.idle-timeout":        "60s",
	"server.shutdown-timeout":    "30s",
}

// setting is one raw value and where it came from, for error reports.
type setting struct {
	key    string
	value  string
	origin string
}

func (s setting) invalid(want string) error {
	return fmt.Errorf("setting %s=%q from %s is invalid: want %s", s.key, s.value, s.origin, want)
}

// loadSettings reads --key=value arguments over environment variables
// (SERVER_PORT for server.port) over defaults. Keys it does not know are
// accepted and ignored, as Spring Boot does.
func loadSettings(args []string, getenv func(string) string) (settings, error) {
	raw := map[string]setting{}
	for k, v := range defaults {
		raw[k] = setting{key: k, value: v, origin: "the defaults"}
		env := strings.ToUpper(strings.NewReplacer(".", "_", "-", "").Replace(k))
		if v := getenv(env); v != "" {
			raw[k] = setting{key: k, value: v, origin: "environment variable " + env}
		}
	}
	for _, arg := range args {
		kv, ok := strings.CutPrefix(arg, "--")
		key, value, hasValue := strings.Cut(kv, "=")
		if !ok || !hasValue || key == "" {
			return settings{}, fmt.Errorf("argument %q is not of the form --key=value", arg)
		}
		raw[key] = setting{key: key, value: value, origin: "command-line argument " + arg}
	}

	var s settings
	p := raw["server.port"]
	port, err := strconv.Atoi(strings.TrimSpace(p.value))
	if err != nil || port < 0 || port > 65535 {
		return settings{}, p.invalid("a port number from 0 to 65535 (0 picks a free port)")
	}
	s.port = port
	for key, dst := range map[string]*time.Duration{
		"server.read-header-timeout": &s.readHeaderTimeout,
		"server.read-timeout":        &s.readTimeout,
		"server.write-timeout":       &s.writeTimeout,
		"server.idle-timeout":        &s.idleTimeout,
		"server.shutdown-timeout":    &s.shutdownTimeout,
	} {
		d, err := time.ParseDuration(strings.TrimSpace(raw[key].value))
		if err != nil || d <= 0 {
			return settings{}, raw[key].invalid("a positive duration such as 500ms, 5s or 1m")
		}
		*dst = d
	}
	return s, nil
}
