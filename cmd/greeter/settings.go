package main

import (
	"fmt"
	"strconv"
	"strings"
)

// settings are what the program reads from its arguments and environment.
type settings struct {
	port int
}

// setting is one raw value and where it came from, for error reports.
type setting struct {
	value  string
	origin string
}

// loadSettings reads --key=value arguments over environment variables over
// defaults. Keys it does not know are accepted and ignored, as Spring Boot
// does.
func loadSettings(args []string, getenv func(string) string) (settings, error) {
	raw := map[string]setting{"server.port": {value: "8080", origin: "the default"}}
	if v := getenv("SERVER_PORT"); v != "" {
		raw["server.port"] = setting{value: v, origin: "environment variable SERVER_PORT"}
	}
	for _, arg := range args {
		kv, ok := strings.CutPrefix(arg, "--")
		key, value, hasValue := strings.Cut(kv, "=")
		if !ok || !hasValue || key == "" {
			return settings{}, fmt.Errorf("argument %q is not of the form --key=value", arg)
		}
		raw[key] = setting{value: value, origin: "command-line argument " + arg}
	}

	var s settings
	p := raw["server.port"]
	port, err := strconv.Atoi(strings.TrimSpace(p.value))
	if err != nil || port < 0 || port > 65535 {
		return settings{}, fmt.Errorf("setting server.port=%q from %s is invalid: want a port number from 0 to 65535 (0 picks a free port)", p.value, p.origin)
	}
	s.port = port
	return s, nil
}
