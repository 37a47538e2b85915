package conformance_test

// The setups the corpus runs in ("#### setup NAME"): the settings given to
// greeter and to Spring alike, written as a Spring team writes them
// (spring. keys, which greeter reads as its app. ones), and the bearer
// tokens a setup's issuer signs.

import (
	"net/url"
	"testing"
	"time"

	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/framework/testing/jwttest"
)

// setupSettings is what a setup gives its applications.
type setupSettings struct {
	args []string // command-line settings, for greeter and Spring alike
	// own gives each application (greeter, boot4, boot35) settings of
	// its own beside args: its own database and Redis namespace.
	own    func(app string) []string
	tokens map[string]string // {token:NAME} in the corpus
}

// setups are the corpus's configurations, by name.
var setups = map[string]func(t *testing.T) setupSettings{
	// plain: the defaults, every management endpoint exposed over HTTP,
	// health with its details and a group.
	"plain": func(t *testing.T) setupSettings {
		return setupSettings{args: []string{
			"--management.endpoints.web.exposure.include=*",
			"--management.endpoint.health.show-details=always",
			"--management.endpoint.health.group.custom.include=ping",
			"--management.info.env.enabled=true",
			"--info.app.name=greeter",
		}}
	},
	// user: Spring Boot's one user over HTTP Basic (user, password
	// "s3cret"); the management endpoints ask for the role ACTUATOR, which
	// the user lacks; the greeting is open.
	"user": func(t *testing.T) setupSettings {
		return setupSettings{args: []string{
			"--management.endpoints.web.exposure.include=health,info,env",
			"--spring.security.user.name=user",
			"--spring.security.user.password={noop}s3cret",
			"--spring.security.user.roles=USER",
			"--spring.security.actuator.roles=ACTUATOR",
			"--spring.security.permit-all=/api/hi",
		}}
	},
	// stores: the messages in PostgreSQL (a database for each
	// application) and the HTTP sessions in Redis (a namespace for each),
	// the numbers session-scoped.
	"stores": func(t *testing.T) setupSettings {
		redisURL, prefix := enginetest.Redis(t)
		return setupSettings{
			args: []string{"--spring.session.store-type=redis", "--spring.data.redis.URL=" + redisURL, "--app.number.scope=session"},
			own: func(app string) []string {
				// Boot 4 (and greeter) name the namespace
				// spring.session.data.redis.namespace, 3.5
				// spring.session.redis.namespace.
				namespace := "--spring.session.data.redis.namespace="
				if app == "boot35" {
					namespace = "--spring.session.redis.namespace="
				}
				return []string{"--spring.datasource.url=" + jdbcURL(t, enginetest.Postgres(t)), namespace + prefix + app}
			},
		}
	},
	// jwt: bearer tokens of an issuer the test serves (OpenID discovery
	// and a JWK set), authorities from the token's roles claim as ROLE_x;
	// the management endpoints ask for ACTUATOR.
	"jwt": func(t *testing.T) setupSettings {
		is := jwttest.NewRSA(t)
		return setupSettings{
			args: []string{
				"--management.endpoints.web.exposure.include=health,info,env",
				"--spring.security.oauth2.resourceserver.jwt.issuer-uri=" + is.URL,
				"--spring.security.oauth2.resourceserver.jwt.authorities-claim-name=roles",
				"--spring.security.oauth2.resourceserver.jwt.authority-prefix=ROLE_",
				"--spring.security.actuator.roles=ACTUATOR",
			},
			tokens: map[string]string{
				"ops":          is.Token(t, map[string]any{"sub": "ops", "roles": []string{"ACTUATOR"}}),
				"user":         is.Token(t, map[string]any{"sub": "bob", "roles": []string{"USER"}}),
				"expired":      is.Token(t, map[string]any{"sub": "bob", "exp": time.Now().Add(-time.Hour).Unix()}),
				"other-issuer": is.Token(t, map[string]any{"sub": "bob", "iss": "https://elsewhere.example"}),
				"tampered":     tamper(is.Token(t, map[string]any{"sub": "bob"})),
			},
		}
	},
}

// tamper changes a token's signature.
func tamper(token string) string { return token[:len(token)-4] + "AAAA" }

// jdbcURL is a postgres:// URL as JDBC writes it, the user a parameter.
func jdbcURL(t *testing.T, pg string) string {
	t.Helper()
	u, err := url.Parse(pg)
	if err != nil {
		t.Fatal(err)
	}
	q := url.Values{}
	if u.User != nil {
		q.Set("user", u.User.Username())
		if pw, ok := u.User.Password(); ok {
			q.Set("password", pw)
		}
	}
	return "jdbc:postgresql://" + u.Host + u.Path + "?" + q.Encode()
}
