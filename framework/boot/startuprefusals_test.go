package boot_test

// Refusals of start-up that are not a value's parse failing: each names
// the setting, its value and where it was set, as a bad value's does.

import (
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestTakenPortNamesItsOrigin: a port that another process holds stops
// start-up with a report that says which setting chose it and where.
func TestTakenPortNamesItsOrigin(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { taken.Close() }) // after the parallel subtests
	port := strconv.Itoa(taken.Addr().(*net.TCPAddr).Port)
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want []string
	}{
		{"server.port in the environment", nil, map[string]string{"SERVER_PORT": port},
			[]string{"Property: server.port", `Value: "` + port + `"`, "Origin: environment variable SERVER_PORT", "cannot listen on server.port=" + port}},
		{"management.server.port on the command line", []string{"--server.port=0", "--management.server.port=" + port}, nil,
			[]string{"Property: management.server.port", `Value: "` + port + `"`, "Origin: command-line argument --management.server.port=" + port}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			report, err := boottest.FailToStart(t, tester(), tt.args, tt.env)
			for _, w := range tt.want {
				if err == nil || !strings.Contains(report, w) {
					t.Errorf("the report does not say %q: %v\n%s", w, err, report)
				}
			}
		})
	}
}
