package boot_test

// Security (issue 25): a user of HTTP Basic set through
// app.security.user.*, Spring Boot's actuator rules, the 401s and 403s
// as problem documents, and Spring Security's default headers, through
// run on port 0.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"math"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/security/password"
	"github.com/springport/greeter/framework/testing/testpki"
)

// The test user's password, and its encodings as Spring's encoders
// write them.
const secret = "s3cret-pässword"

var salt = []byte("0123456789abcdef")

func encoded(t *testing.T, id string) string {
	t.Helper()
	s, err := password.Encode(id, secret, salt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// basic is an Authorization header of HTTP Basic.
func basic(name, pass string) string {
	return "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(name+":"+pass))
}

// securedArgs turn security on with the user admin, who holds roles.
func securedArgs(t *testing.T, roles string, more ...string) []string {
	return append([]string{"--app.security.user.name=admin", "--app.security.user.password=" + encoded(t, "bcrypt"),
		"--app.security.user.roles=" + roles, exposeAll}, more...)
}

// springHeaders are Spring Security's default response headers.
var springHeaders = map[string]string{
	"X-Content-Type-Options": "nosniff",
	"X-Frame-Options":        "DENY",
	"Cache-Control":          "no-cache, no-store, max-age=0, must-revalidate",
	"Pragma":                 "no-cache",
	"Expires":                "0",
	"X-Xss-Protection":       "0",
}

func checkSpringHeaders(t *testing.T, r response) {
	t.Helper()
	for name, want := range springHeaders {
		if got := r.header.Get(name); got != want {
			t.Errorf("%s: %s: %q, want %q", r.request, name, got, want)
		}
	}
	if got := r.header.Get("Strict-Transport-Security"); got != "" {
		t.Errorf("%s over plain HTTP: Strict-Transport-Security %q, want none", r.request, got)
	}
}

// checkRefused checks a 401 or 403: a problem document, HTTP Basic's
// challenge on a 401, and never the password.
func checkRefused(t *testing.T, r response, status int) boottest.Problem {
	t.Helper()
	return checkRefusedWith(t, r, status, func(challenge string) bool { return challenge == `Basic realm="Realm", charset="UTF-8"` })
}

// checkRefusedWith is checkRefused with the test of a 401's challenge.
func checkRefusedWith(t *testing.T, r response, status int, challenged func(string) bool) boottest.Problem {
	t.Helper()
	if r.status != status {
		t.Fatalf("%s: %d %s, want %d", r.request, r.status, r.body, status)
	}
	p, err := boottest.CheckProblem(r.status, r.header, r.body)
	if err != nil || r.header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("%s: %v (Content-Type %q), want a problem document", r.request, err, r.header.Get("Content-Type"))
	}
	challenge := r.header.Get("WWW-Authenticate")
	if status == http.StatusUnauthorized && !challenged(challenge) {
		t.Errorf("%s: WWW-Authenticate %q, not the challenge wanted", r.request, challenge)
	}
	if status == http.StatusForbidden && challenge != "" {
		t.Errorf("%s: a 403 with WWW-Authenticate %q", r.request, challenge)
	}
	if strings.Contains(r.body, secret) || strings.Contains(r.body, "wrong") {
		t.Errorf("%s: the answer quotes the credentials: %s", r.request, r.body)
	}
	checkSpringHeaders(t, r)
	return p
}

// TestSecurityOffChangesNothing: without a user, nothing asks for
// credentials and no header of Spring Security's is added.
func TestSecurityOffChangesNothing(t *testing.T) {
	t.Parallel()
	s := start(t, []string{exposeAll}, nil)
	for _, path := range []string{"/hello", "/actuator/env", "/actuator/health"} {
		r := send(t, nil, "GET", s.URL+path, "")
		if r.status != http.StatusOK || r.header.Get("X-Frame-Options") != "" || r.header.Get("WWW-Authenticate") != "" {
			t.Errorf("GET %s with security off: %d, X-Frame-Options %q, want 200 without it", path, r.status, r.header.Get("X-Frame-Options"))
		}
	}
}

// TestSecurityBasicUser: with a user, every path needs its credentials
// but health and app.security.permit-all's, as Spring Boot 3's default
// asks (info included); wrong credentials are a 401 even on an open path;
// refusals are logged with the request ID and counted; the access log
// names the principal.
func TestSecurityBasicUser(t *testing.T) {
	t.Parallel()
	s := start(t, securedArgs(t, "ACTUATOR", "--app.security.permit-all=/hello/**", "--server.access-log.enabled=true"), nil)
	right, wrong := basic("admin", secret), basic("admin", "wrong")

	for _, path := range []string{"/hello", "/hello/3", "/actuator/health", "/actuator/health/liveness"} {
		r := send(t, nil, "GET", s.URL+path, "")
		if r.status != http.StatusOK {
			t.Errorf("GET %s without credentials: %d %s, want 200 (open)", path, r.status, r.body)
		}
		checkSpringHeaders(t, r)
	}
	for _, path := range []string{"/store", "/actuator", "/actuator/info", "/actuator/env", "/actuator/prometheus", "/nowhere"} {
		checkRefused(t, send(t, nil, "GET", s.URL+path, ""), http.StatusUnauthorized)
		r := send(t, nil, "GET", s.URL+path, "", right)
		if r.status == http.StatusUnauthorized || r.status == http.StatusForbidden {
			t.Errorf("GET %s as admin: %d %s, want it served", path, r.status, r.body)
		}
		// Spring Security's headers on every answer, the 404 of a path
		// nothing serves (/nowhere) too.
		checkSpringHeaders(t, r)
	}
	refused := send(t, nil, "GET", s.URL+"/store", "", wrong)
	p := checkRefused(t, refused, http.StatusUnauthorized)
	checkRefused(t, send(t, nil, "GET", s.URL+"/hello", "", wrong), http.StatusUnauthorized)
	checkRefused(t, send(t, nil, "GET", s.URL+"/store", "", basic("nobody", secret)), http.StatusUnauthorized)
	checkRefused(t, send(t, nil, "GET", s.URL+"/store", "", "Authorization: Basic not-base64!"), http.StatusUnauthorized)
	checkRefused(t, send(t, nil, "GET", s.URL+"/store", "", "Authorization: Basic "+base64.StdEncoding.EncodeToString([]byte("no colon"))), http.StatusUnauthorized)
	// The scheme is case-insensitive (RFC 7617).
	if r := send(t, nil, "GET", s.URL+"/store", "", strings.Replace(right, "Basic", "bAsIc", 1)); r.status != http.StatusOK {
		t.Errorf("GET /store with scheme bAsIc: %d, want 200", r.status)
	}

	// The refusal is logged at WARN with the ID the client got, without
	// the credentials.
	line := s.WaitForLog(t, regexp.MustCompile(`level=WARN msg="request refused by security".*reason="bad credentials" request_id=`+regexp.QuoteMeta(p.RequestID)))
	if strings.Contains(line[0], secret) || strings.Contains(line[0], "wrong") {
		t.Errorf("the log line quotes the credentials: %s", line[0])
	}
	s.WaitForLog(t, regexp.MustCompile(`msg=request method=GET path=/store route=/store status=200 .* principal=admin`))
	if out := s.Stdout.String(); strings.Contains(out, secret) {
		t.Errorf("the log holds the password")
	}

	metrics := send(t, nil, "GET", s.URL+"/actuator/prometheus", "", right).body
	for _, want := range []string{`security_refusals_total{reason="bad_credentials",status="401"} 5`, `security_refusals_total{reason="no_credentials",status="401"} 6`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/actuator/prometheus lacks %s", want)
		}
	}
}

// TestSecurityActuatorDefault: as in Spring Boot 3, any authenticated
// user is served every management endpoint, whatever its roles; info is
// open only when app.security.permit-all names it, and a broad pattern
// (/**) opens no endpoint.
func TestSecurityActuatorDefault(t *testing.T) {
	t.Parallel()
	s := start(t, securedArgs(t, "USER", "--app.security.permit-all=/actuator/info,/**"), nil)
	right := basic("admin", secret)
	for _, path := range []string{"/store", "/actuator", "/actuator/env", "/actuator/loggers/root", "/actuator/info"} {
		if r := send(t, nil, "GET", s.URL+path, "", right); r.status != http.StatusOK {
			t.Errorf("GET %s as a USER: %d %s, want 200", path, r.status, r.body)
		}
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/info", ""); r.status != http.StatusOK {
		t.Errorf("GET /actuator/info without credentials, permit-all naming it: %d, want 200", r.status)
	}
	if r := send(t, nil, "GET", s.URL+"/store", ""); r.status != http.StatusOK {
		t.Errorf("GET /store without credentials, permit-all /**: %d, want 200", r.status)
	}
	for _, path := range []string{"/actuator", "/actuator/env", "/actuator/beans"} {
		checkRefused(t, send(t, nil, "GET", s.URL+path, ""), http.StatusUnauthorized)
	}
}

// TestSecurityActuatorRoles: with app.security.actuator.roles, a user
// without one of them is served the service's paths and refused the
// management endpoints with 403, but health; one with it, as a role name
// or as its authority, is served them.
func TestSecurityActuatorRoles(t *testing.T) {
	t.Parallel()
	s := start(t, securedArgs(t, "USER", "--app.security.actuator.roles=ACTUATOR,ROLE_OPS"), nil)
	right := basic("admin", secret)
	if r := send(t, nil, "GET", s.URL+"/store", "", right); r.status != http.StatusOK {
		t.Errorf("GET /store as a USER: %d, want 200", r.status)
	}
	for _, path := range []string{"/actuator", "/actuator/env", "/actuator/loggers/root", "/actuator/info"} {
		checkRefused(t, send(t, nil, "GET", s.URL+path, "", right), http.StatusForbidden)
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/health", "", right); r.status != http.StatusOK {
		t.Errorf("GET /actuator/health as a USER: %d, want 200", r.status)
	}
	s.WaitForLog(t, regexp.MustCompile(`level=WARN msg="request refused by security" method=GET path=/actuator/env status=403 .* principal=admin`))
	for _, roles := range []string{"ACTUATOR", "OPS"} {
		ops := start(t, securedArgs(t, roles, "--app.security.actuator.roles=ACTUATOR,ROLE_OPS"), nil)
		if r := send(t, nil, "GET", ops.URL+"/actuator/env", "", right); r.status != http.StatusOK {
			t.Errorf("GET /actuator/env with the role %s: %d %s, want 200", roles, r.status, r.body)
		}
	}
}

// TestSecurityPasswordEncodings: each of Spring's encodings is read; a
// password with no {id}, or {noop}, works and is warned about.
func TestSecurityPasswordEncodings(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"bcrypt", "argon2", "pbkdf2", "noop", ""} {
		stored := secret
		if id != "" {
			stored = encoded(t, id)
		}
		s := start(t, []string{"--app.security.user.password=" + stored}, nil)
		// The name defaults to user, as in Spring.
		if r := send(t, nil, "GET", s.URL+"/hello", "", basic("user", secret)); r.status != http.StatusOK {
			t.Errorf("{%s}: GET /hello as user: %d %s, want 200", id, r.status, r.body)
		}
		checkRefused(t, send(t, nil, "GET", s.URL+"/hello", "", basic("user", secret+"x")), http.StatusUnauthorized)
		warned := strings.Contains(s.Stdout.String(), "is kept as it is")
		if warned != (id == "noop" || id == "") {
			t.Errorf("{%s}: warned of a plain password: %v", id, warned)
		}
	}
}

// TestSecurityRefusesBadUsers: a user without a password, an unknown
// encoding, an encoded password that does not parse or a bad pattern
// stop start-up, naming the setting and never printing the password.
func TestSecurityRefusesBadUsers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--app.security.user.name=admin"}, "app.security.user.password"},
		{[]string{"--app.security.user.password={sha256}" + secret}, "no password encoder has the id {sha256}"},
		{[]string{"--app.security.user.password={bcrypt}" + secret}, "want a BCrypt hash"},
		{[]string{"--app.security.user.password={argon2}$argon2d$v=19$m=16,t=2,p=1$" + secret}, "want an Argon2 hash"},
		{[]string{"--app.security.user.password={pbkdf2}" + secret}, "want the hex of a 16-byte salt"},
		{[]string{"--app.security.user.roles=ACTUATOR"}, "roles without a user"},
		{[]string{"--app.security.user.password=" + secret, "--app.security.user.roles=ROLE_ACTUATOR"}, "starts with ROLE_"},
		{[]string{"--app.security.user.password=" + secret, "--app.security.permit-all=/api/**/x"}, "app.security.permit-all"},
	} {
		stderr, err := boottest.FailToStart(t, tester(), c.args, nil)
		if err == nil || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: %v\n%s\nwant a refusal with %q", c.args, err, stderr, c.want)
		}
		if strings.Contains(stderr, secret) {
			t.Errorf("%v: the refusal prints the password:\n%s", c.args, stderr)
		}
	}
}

// TestSecurityHealthWhenAuthorized: when-authorized shows health's
// components and details to an authenticated user holding one of
// management.endpoint.health.roles, and not to anyone else.
func TestSecurityHealthWhenAuthorized(t *testing.T) {
	t.Parallel()
	s := start(t, securedArgs(t, "OPS", "--management.endpoint.health.show-details=when-authorized", "--management.endpoint.health.roles=OPS"), nil)
	if _, body := get(t, s.URL+"/actuator/health"); strings.Contains(body, "components") {
		t.Errorf("anonymous /actuator/health shows the components: %s", body)
	}
	if r := send(t, nil, "GET", s.URL+"/actuator/health", "", basic("admin", secret)); !strings.Contains(r.body, `"kind":"test"`) {
		t.Errorf("/actuator/health as an OPS: %s, want the store's details", r.body)
	}
	other := start(t, securedArgs(t, "USER", "--management.endpoint.health.show-details=when-authorized", "--management.endpoint.health.roles=OPS"), nil)
	if r := send(t, nil, "GET", other.URL+"/actuator/health", "", basic("admin", secret)); strings.Contains(r.body, "components") {
		t.Errorf("/actuator/health as a USER, health's roles OPS: %s, want no components", r.body)
	}
}

// TestSecurityContextPathAndManagementPort: the rules read paths without
// the context path, and guard a management port of its own too.
func TestSecurityContextPathAndManagementPort(t *testing.T) {
	t.Parallel()
	s := start(t, securedArgs(t, "ACTUATOR", "--server.servlet.context-path=/ctx", "--app.security.permit-all=/hello",
		"--management.server.port=0"), nil)
	if r := send(t, nil, "GET", s.URL+"/ctx/hello", ""); r.status != http.StatusOK {
		t.Errorf("GET /ctx/hello: %d, want 200 (permitted)", r.status)
	}
	checkRefused(t, send(t, nil, "GET", s.URL+"/ctx/store", ""), http.StatusUnauthorized)
	checkRefused(t, send(t, nil, "GET", s.ManagementURL+"/actuator/env", ""), http.StatusUnauthorized)
	if r := send(t, nil, "GET", s.ManagementURL+"/actuator/env", "", basic("admin", secret)); r.status != http.StatusOK {
		t.Errorf("GET /actuator/env on the management port as admin: %d, want 200", r.status)
	}
	if r := send(t, nil, "GET", s.ManagementURL+"/actuator/health", ""); r.status != http.StatusOK {
		t.Errorf("GET /actuator/health on the management port: %d, want 200", r.status)
	}
}

// TestSecurityHSTSOnTLSOnly: Strict-Transport-Security is sent over
// HTTPS, as Spring sends it on secure requests only.
func TestSecurityHSTSOnTLSOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := testpki.NewCA(t, "test CA")
	certPEM, keyPEM := ca.Server(t, "server")
	s := start(t, securedArgs(t, "ACTUATOR", "--server.ssl.certificate=file:"+testpki.WriteFile(t, dir, "server.crt", certPEM),
		"--server.ssl.certificate-private-key="+testpki.WriteFile(t, dir, "server.key", keyPEM)), nil)
	r := send(t, httpsClient(ca, nil), "GET", httpsURL(s)+"/actuator/health", "")
	if got := r.header.Get("Strict-Transport-Security"); got != "max-age=31536000 ; includeSubDomains" {
		t.Errorf("GET https /actuator/health: Strict-Transport-Security %q, want Spring's", got)
	}
}

// wrongPasswordFlood is how many wrong passwords arrive at once in
// TestSecurityWrongPasswordFlood.
const wrongPasswordFlood = 200

// TestSecurityWrongPasswordFlood: while 200 requests with wrong
// passwords are checked (bcrypt, at most GOMAXPROCS at once), a user
// whose credentials were checked once and an open path keep answering.
//
// The bound is what one check of a wrong password takes, measured in the
// test before the flood, so a busy machine slows both alike: queued
// behind the flood, a request would wait for about 200/GOMAXPROCS
// checks; each request during it may take at most 8 checks' time. The
// flood must still be under way when the last request has its answer;
// then its clients give up, and the checks still waiting for a slot are
// dropped, so the test does not wait out the whole flood.
func TestSecurityWrongPasswordFlood(t *testing.T) {
	if testing.Short() || raceEnabled {
		// Under the race detector bcrypt is many times slower, and the
		// times measured say nothing of the service's.
		t.Skip("a flood of bcrypt checks, timed: not with -short or -race")
	}
	s := start(t, securedArgs(t, "ACTUATOR"), nil)
	right := basic("admin", secret)
	send(t, nil, "GET", s.URL+"/hello", "", right) // checked once, then remembered
	// The baseline: one check of a wrong password, the fastest of three,
	// and the requests themselves before the flood.
	oneCheck := math.Inf(1)
	for range 3 {
		began := now()
		if r := send(t, nil, "GET", s.URL+"/hello", "", basic("admin", "wrong")); r.status != http.StatusUnauthorized {
			t.Fatalf("GET /hello with a wrong password: %d, want 401", r.status)
		}
		oneCheck = min(oneCheck, since(began))
	}
	probe := func() (user, open float64) {
		began := now()
		if r := send(t, nil, "GET", s.URL+"/hello", "", right); r.status != http.StatusOK {
			t.Fatalf("GET /hello as admin: %d", r.status)
		}
		user = since(began)
		began = now()
		if r := send(t, nil, "GET", s.URL+"/actuator/health", ""); r.status != http.StatusOK {
			t.Fatalf("GET /actuator/health: %d", r.status)
		}
		return user, since(began)
	}
	var calmUser, calmOpen float64
	for range 5 {
		u, o := probe()
		calmUser, calmOpen = max(calmUser, u), max(calmOpen, o)
	}

	// The flood's own requests wait their turn: up to 200 checks, a few
	// at a time, may take longer than a test's usual timeout.
	ctx, giveUp := context.WithCancel(t.Context())
	defer giveUp()
	client := &http.Client{Timeout: time.Minute}
	var wg sync.WaitGroup
	var answered atomic.Int64
	start := make(chan struct{})
	for i := range wrongPasswordFlood {
		wg.Go(func() {
			<-start
			req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+"/hello", nil)
			req.SetBasicAuth("admin", "wrong"+string(rune('a'+i%26)))
			resp, err := client.Do(req)
			switch {
			case err != nil && ctx.Err() != nil: // given up on after the probes
			case err != nil:
				t.Errorf("a wrong password during the flood: %v", err)
			default:
				resp.Body.Close()
				answered.Add(1)
				if resp.StatusCode != http.StatusUnauthorized {
					t.Errorf("a wrong password during the flood: %d, want 401", resp.StatusCode)
				}
			}
		})
	}
	close(start)
	var worstUser, worstOpen float64
	for range 10 {
		u, o := probe()
		worstUser, worstOpen = max(worstUser, u), max(worstOpen, o)
	}
	during := answered.Load()
	giveUp()
	wg.Wait()
	t.Logf("one wrong password alone: %.1f ms; before the flood, slowest authenticated request %.1f ms, open %.1f ms; "+
		"during it (%d of %d wrong passwords answered by the end), %.1f ms and %.1f ms",
		oneCheck, calmUser, calmOpen, during, wrongPasswordFlood, worstUser, worstOpen)
	if during >= wrongPasswordFlood {
		t.Fatalf("the flood was over before the requests measured during it were: they measured nothing")
	}
	if bound := 8 * oneCheck; worstUser > bound || worstOpen > bound {
		t.Errorf("during the flood: slowest authenticated %.1f ms, open %.1f ms, want both under %.1f ms, 8 times one check of a password (%.1f ms)",
			worstUser, worstOpen, bound, oneCheck)
	}
}

func now() time.Time { return time.Now() }

// since is the milliseconds since began.
func since(began time.Time) float64 { return float64(time.Since(began).Microseconds()) / 1000 }

// TestSecurityLetsPreflightsThrough: a CORS preflight carries no
// credentials, and is answered before security asks for them, as Spring
// Security's CorsFilter answers it; the request that follows needs them.
func TestSecurityLetsPreflightsThrough(t *testing.T) {
	t.Parallel()
	s := start(t, securedArgs(t, "ACTUATOR", "--management.endpoints.web.cors.allowed-origins="+opsOrigin,
		"--management.endpoints.web.cors.allowed-methods=GET"), nil)
	if r := preflight(t, s.URL+"/actuator/env", opsOrigin, "GET"); r.status != http.StatusOK || r.header.Get("Access-Control-Allow-Origin") != opsOrigin {
		t.Errorf("preflight of GET /actuator/env: %d, Access-Control-Allow-Origin %q, want 200 for %s", r.status, r.header.Get("Access-Control-Allow-Origin"), opsOrigin)
	}
	checkRefused(t, send(t, nil, "GET", s.URL+"/actuator/env", "", "Origin: "+opsOrigin), http.StatusUnauthorized)
}

// TestSecurityInTheOpenAPIDocument: with a user, the document served
// names HTTP Basic, and an operation needs it unless
// app.security.permit-all leaves its path open.
func TestSecurityInTheOpenAPIDocument(t *testing.T) {
	t.Parallel()
	s := start(t, securedArgs(t, "USER", "--app.security.permit-all=/hello/**,/v3/api-docs/**"), nil)
	r := send(t, nil, "GET", s.URL+"/v3/api-docs", "")
	if r.status != http.StatusOK {
		t.Fatalf("GET /v3/api-docs: %d %s", r.status, r.body)
	}
	var doc struct {
		Components struct {
			SecuritySchemes map[string]map[string]string `json:"securitySchemes"`
		} `json:"components"`
		Paths map[string]map[string]struct {
			Security []map[string][]string `json:"security"`
		} `json:"paths"`
	}
	if err := json.Unmarshal([]byte(r.body), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Components.SecuritySchemes["basicAuth"]; got["type"] != "http" || got["scheme"] != "basic" {
		t.Errorf("securitySchemes.basicAuth = %v, want HTTP Basic", got)
	}
	if _, ok := doc.Components.SecuritySchemes["bearerAuth"]; ok {
		t.Errorf("securitySchemes names bearerAuth, with no token key source set")
	}
	if op, ok := doc.Paths["/hello"]["get"]; !ok || len(op.Security) != 0 {
		t.Errorf("GET /hello (permitted to all): security %v, want []", op.Security)
	}
	if op, ok := doc.Paths["/store"]["get"]; !ok || len(op.Security) != 1 || op.Security[0]["basicAuth"] == nil {
		t.Errorf("GET /store: security %v, want [{basicAuth: []}]", op.Security)
	}
}
