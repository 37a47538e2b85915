package boot

import (
	"errors"
	"fmt"
	"testing"

	"github.com/springport/greeter/framework/config"
)

func TestFailureReport(t *testing.T) {
	const (
		head = "\n***************************\nAPPLICATION FAILED TO START\n***************************\n\nDescription:\n\n"
		tail = "Action:\n\nUpdate your application's configuration\n"
	)
	port := &config.SettingError{
		Value:  config.Value{Key: "server.port", Raw: "eighty", Origin: "command-line argument --server.port=eighty"},
		Reason: "want a port number from 0 to 65535 (0 picks a free port)",
	}
	portBlock := "Failed to bind properties under 'server.port':\n\n    Property: server.port\n    Value: \"eighty\"\n" +
		"    Origin: command-line argument --server.port=eighty\n    Reason: want a port number from 0 to 65535 (0 picks a free port)\n\n"
	propB := &config.SettingError{
		Value:  config.Value{Key: "app.example.prop-b", Raw: "x \"y\"", Origin: "environment variable APP_EXAMPLE_PROPB"},
		Reason: "want an integer",
	}
	propBBlock := "Failed to bind properties under 'app.example.prop-b':\n\n    Property: app.example.prop-b\n    Value: \"x \\\"y\\\"\"\n" +
		"    Origin: environment variable APP_EXAMPLE_PROPB\n    Reason: want an integer\n\n"
	listen := errors.New("cannot listen on server.port=80: permission denied")

	tests := []struct {
		name string
		err  error
		want string
	}{
		{"one setting", port, head + portBlock + tail},
		{"several settings, in order", errors.Join(port, propB), head + portBlock + propBBlock + tail},
		{"another error", listen, head + listen.Error() + "\n\n" + tail},
		{"settings before other errors", errors.Join(listen, port), head + portBlock + listen.Error() + "\n\n" + tail},
		{"joined within joined", errors.Join(errors.Join(port), errors.Join(propB, listen)), head + portBlock + propBBlock + listen.Error() + "\n\n" + tail},
		{"a wrapped setting", fmt.Errorf("binding: %w", port), head + portBlock + tail},
	}
	for _, tt := range tests {
		if got := failureReport(tt.err); got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
