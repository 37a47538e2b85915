package boot_test

// The messages of start-up, through the running service: a report masks
// a password where it stands, with one mask.

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestReportMasksByPosition: a report masks the password of a connection
// string where it stands, not the names equal to it, and shows Oracle's
// jdbc:oracle:thin:@host, which has none, as written.
func TestReportMasksByPosition(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		url  string
		want string
	}{
		{"postgres://postgres:postgres@localhost:25432/postgres", `Value: "postgres://postgres:******@localhost:25432/postgres"`},
		{"jdbc:oracle:thin:@localhost:1521/x", `Value: "jdbc:oracle:thin:@localhost:1521/x"`},
		{"jdbc:oracle:thin:scott/tiger@localhost:1521/x", `Value: "jdbc:oracle:thin:scott/******@localhost:1521/x"`},
	} {
		// tester.store-down takes true or false: the URL is refused, and
		// the report shows it as its Value.
		stderr, _ := boottest.FailToStart(t, tester(), []string{"--server.port=0", "--tester.store-down=" + tt.url}, nil)
		if !strings.Contains(stderr, tt.want) || strings.Contains(stderr, "tiger") || strings.Contains(stderr, "xxxxx") {
			t.Errorf("%s: the report lacks %s, or shows the password:\n%s", tt.url, tt.want, stderr)
		}
	}
}
