package conformance_test

// The setups the corpus runs in ("#### setup NAME"): the settings given to
// greeter and to Spring alike, written as a Spring team writes them
// (spring. keys, which greeter reads as its app. ones), and the bearer
// tokens a setup's issuer signs.

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/springport/greeter/framework/testing/enginetest"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
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
			args: []string{"--spring.session.store-type=redis", "--spring.data.redis.url=" + redisURL, "--app.number.scope=session"},
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
		is := serveIssuer(t)
		return setupSettings{
			args: []string{
				"--management.endpoints.web.exposure.include=health,info,env",
				"--spring.security.oauth2.resourceserver.jwt.issuer-uri=" + is.url,
				"--spring.security.oauth2.resourceserver.jwt.authorities-claim-name=roles",
				"--spring.security.oauth2.resourceserver.jwt.authority-prefix=ROLE_",
				"--spring.security.actuator.roles=ACTUATOR",
			},
			tokens: map[string]string{
				"ops":          is.token(t, map[string]any{"sub": "ops", "roles": []string{"ACTUATOR"}}),
				"user":         is.token(t, map[string]any{"sub": "bob", "roles": []string{"USER"}}),
				"expired":      is.token(t, map[string]any{"sub": "bob", "exp": time.Now().Add(-time.Hour).Unix()}),
				"other-issuer": is.token(t, map[string]any{"sub": "bob", "iss": "https://elsewhere.example"}),
				"tampered":     tamper(is.token(t, map[string]any{"sub": "bob"})),
			},
		}
	},
}

// issuer is an authorization server with one RSA key (RS256): its
// discovery document names itself and its JWK set.
type issuer struct {
	url string
	key *rsa.PrivateKey
}

// serveIssuer serves an issuer until the test ends.
func serveIssuer(t *testing.T) *issuer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	is := &issuer{key: key}
	pub, err := jwk.Import(key.Public())
	if err != nil {
		t.Fatal(err)
	}
	if err := pub.Set(jwk.KeyIDKey, "k1"); err != nil {
		t.Fatal(err)
	}
	set := jwk.NewSet()
	if err := set.AddKey(pub); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"issuer":%q,"jwks_uri":%q,"subject_types_supported":["public"],"response_types_supported":["code"],"id_token_signing_alg_values_supported":["RS256"]}`, is.url, is.url+"/jwks")
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(set)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	is.url = srv.URL
	return is
}

// token signs claims; iss, iat and exp are the issuer's, two hours ago
// and an hour from now unless claims say otherwise (Spring refuses a
// token that expires before it was issued).
func (is *issuer) token(t *testing.T, claims map[string]any) string {
	t.Helper()
	all := map[string]any{"iss": is.url, "exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Add(-2 * time.Hour).Unix()}
	for k, v := range claims {
		all[k] = v
	}
	payload, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	h := jws.NewHeaders()
	if err := h.Set(jws.KeyIDKey, "k1"); err != nil {
		t.Fatal(err)
	}
	out, err := jws.Sign(payload, jws.WithKey(jwa.RS256(), is.key, jws.WithProtectedHeaders(h)))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
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
