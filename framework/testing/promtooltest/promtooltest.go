// Package promtooltest reads what Prometheus's promtool says of an
// exposition, for the tests that run `promtool check metrics` on the
// framework's /actuator/prometheus. Only tests import it.
package promtooltest

import (
	"errors"
	"os/exec"
	"strings"
)

// OnlyMicrometersLint reports whether promtool's complaint (err, and out,
// what it printed) is only its lint of a name that is Micrometer's (exit
// status 3: the exposition parsed, and a rule of style failed):
// system_cpu_count is a gauge whose name ends in _count, which Spring's
// dashboards query as it is.
func OnlyMicrometersLint(err error, out []byte) bool {
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		return false
	}
	for line := range strings.Lines(strings.TrimSpace(string(out))) {
		if strings.TrimSpace(line) != `system_cpu_count non-histogram and non-summary metrics should not have "_count" suffix` {
			return false
		}
	}
	return true
}
