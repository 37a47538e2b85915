package boot_test

// The bearer-token settings at start-up: a bad one stops it, naming the
// setting, its value and its origin; good ones are known settings.

import (
	"net/http"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

func TestBadJWTSettingStopsStartUp(t *testing.T) {
	t.Parallel()
	report, err := boottest.FailToStart(t, tester(), []string{"--server.port=0"},
		map[string]string{"APP_SECURITY_OAUTH2_RESOURCESERVER_JWT_JWS_ALGORITHMS": "HS256"})
	for _, want := range []string{
		"app.security.oauth2.resourceserver.jwt.jws-algorithms", `"HS256"`,
		"environment variable APP_SECURITY_OAUTH2_RESOURCESERVER_JWT_JWS_ALGORITHMS", "HS256 and none are not accepted",
	} {
		if err == nil || !strings.Contains(report, want) {
			t.Errorf("the report does not say %q: %v\n%s", want, err, report)
		}
	}
}

func TestJWTSettingsAreKnown(t *testing.T) {
	t.Parallel()
	// With unknown keys refused, a start with every bearer-token
	// setting proves each is read.
	app := boottest.Start(t, tester(), []string{
		"--app.config.fail-on-unknown=true",
		"--spring.security.oauth2.resourceserver.jwt.jwk-set-uri=http://127.0.0.1:1/jwks",
		"--app.security.oauth2.resourceserver.jwt.issuer-uri=http://127.0.0.1:1",
		"--app.security.oauth2.resourceserver.jwt.public-key-location=key.pub",
		"--app.security.oauth2.resourceserver.jwt.audiences=greeter",
		"--app.security.oauth2.resourceserver.jwt.jws-algorithms=ES256",
		"--app.security.oauth2.resourceserver.jwt.authorities-claim-name=roles",
		"--app.security.oauth2.resourceserver.jwt.authorities-claim-delimiter=,",
		"--app.security.oauth2.resourceserver.jwt.authority-prefix=ROLE_",
		"--app.security.oauth2.resourceserver.jwt.principal-claim-name=preferred_username",
	}, nil)
	resp, err := http.Get(app.URL + "/actuator/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("health: %d", resp.StatusCode)
	}
}
