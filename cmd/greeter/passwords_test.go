package main

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestDatasourcePasswordsAreNeverPrinted: whatever shape app.datasource.url
// has (a typo in its scheme, a JDBC URL, a libpq key/value DSN, a password
// in the query), a start that it stops prints the report once, naming the
// setting, and never the password. No engine is needed: the addresses
// refuse connections.
func TestDatasourcePasswordsAreNeverPrinted(t *testing.T) {
	t.Parallel()
	for _, url := range []string{
		"postgres//u:hunter2@127.0.0.1:1/db",
		"postgresql:/u:hunter2@127.0.0.1:1/db",
		"jdbc:postgresql://127.0.0.1:1/db?password=hunter2",
		"jdbc:postgresql://127.0.0.1:1/db?user=u&password=hunter2",
		"jdbc:postgresql://u:hunter2@127.0.0.1:1/db",
		"host=127.0.0.1 port=1 password=hunter2",
		"host=127.0.0.1 port=1 user=u password='hun ter2'",
		"postgres://u@127.0.0.1:1/db?password=hunter2",
		"postgres://u@127.0.0.1:1/db?sslmode=disable&sslpassword=hunter2",
		"postgres://u:hunter2@127.0.0.1:1/db?sslmode=bogus",
	} {
		stderr, err := boottest.FailToStart(t, greeter(), []string{"--server.port=0", "--app.datasource.url=" + url, "--app.datasource.hikari.connection-timeout=1s"}, nil)
		if err == nil {
			t.Errorf("%q: the service started", url)
			continue
		}
		if strings.Contains(stderr, "hunter2") || strings.Contains(stderr, "hun ter2") || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%q: the report prints the password:\n%s", url, stderr)
		}
		if n := strings.Count(stderr, "APPLICATION FAILED TO START"); n != 1 || !strings.Contains(stderr, "Property: app.datasource.url") ||
			!strings.Contains(stderr, "Origin: command-line argument --app.datasource.url\n") || !strings.Contains(stderr, "******") {
			t.Errorf("%q: the report (printed %d times) should name the setting, its masked value and its origin:\n%s", url, n, stderr)
		}
	}
}
