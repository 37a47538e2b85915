package dispatch

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Browsers keep a page from reading, or changing, what another origin
// (scheme, host and port) serves, unless that origin allows it. Two
// mechanisms decide here, as Spring's CorsFilter and CSRF protection do
// together:
//
//   - CORS (Cross-Origin Resource Sharing): a route with a CORS policy
//     answers a page of an origin the policy allows, and says so in the
//     Access-Control-* headers a browser reads; before a request that is
//     not "simple" (a PUT, a JSON body, a header of its own), the browser
//     asks first with a preflight, an OPTIONS request carrying
//     Access-Control-Request-Method, which the dispatcher answers from the
//     routes the path has. This is Spring's DefaultCorsProcessor.
//   - Cross-origin protection: a "simple" POST (a form, text/plain) is
//     sent by a browser without asking, so that a page on any site could
//     stop the service through /actuator/shutdown. Every state-changing
//     request that a browser says comes from another origin is refused
//     (net/http's CrossOriginProtection), unless the route's CORS policy
//     allows that origin. Clients that are not browsers (curl, other
//     services) send neither Sec-Fetch-Site nor Origin, and pass.

// CORS is a route's CORS policy: Spring's CorsConfiguration, as Spring
// Boot's management.endpoints.web.cors.* settings fill it. A route without
// one serves no cross-origin page.
type CORS struct {
	// AllowedOrigins are the origins ("https://example.com") whose pages
	// may call the route, compared without regard to case; "*" allows
	// every origin.
	AllowedOrigins []string
	// AllowedOriginPatterns are origins with "*" standing for any text
	// ("https://*.example.com"), and an optional port list at the end:
	// ":[8080,8081]", or ":[*]" for any port or none.
	AllowedOriginPatterns []string
	// AllowedMethods are the methods allowed; empty means GET and HEAD,
	// as in Spring, and "*" any method.
	AllowedMethods []string
	// AllowedHeaders are the request headers a preflight may announce;
	// "*" allows any; empty allows none beyond the CORS-safelisted ones a
	// browser does not announce.
	AllowedHeaders []string
	// ExposedHeaders are the response headers, beyond the safelisted ones,
	// that a page may read.
	ExposedHeaders []string
	// AllowCredentials lets the browser send cookies and HTTP
	// authentication with the request, and the page read the answer.
	AllowCredentials bool
	// MaxAge is how long a browser may cache a preflight's answer; zero
	// sends no Access-Control-Max-Age.
	MaxAge time.Duration
}

// ErrCredentialsWithAnyOrigin is CORS.Check's refusal of credentials for
// every origin, which browsers refuse too: Access-Control-Allow-Origin
// cannot be "*" on an answer with credentials.
var ErrCredentialsWithAnyOrigin = errors.New(`credentials cannot be allowed to every origin (allowed-origins "*"), since Access-Control-Allow-Origin cannot be "*" on an answer with credentials; list the origins, or use allowed-origin-patterns`)

// Enabled reports whether the policy allows any origin at all: as in
// Spring, CORS is off until origins or origin patterns are set.
func (c *CORS) Enabled() bool {
	return c != nil && (len(c.AllowedOrigins) > 0 || len(c.AllowedOriginPatterns) > 0)
}

// WithCORS returns routes, each with the policy c; routes themselves
// when c is nil (CORS off).
func WithCORS(c *CORS, routes ...Route) []Route {
	if c == nil {
		return routes
	}
	out := make([]Route, len(routes))
	for i, rt := range routes {
		rt.CORS = c
		out[i] = rt
	}
	return out
}

// Check reports what makes the policy unusable: credentials with every
// origin, or an origin pattern that cannot be read.
func (c *CORS) Check() error {
	if c.AllowCredentials && slices.Contains(c.AllowedOrigins, "*") {
		return ErrCredentialsWithAnyOrigin
	}
	for _, p := range c.AllowedOriginPatterns {
		if _, err := compileOriginPattern(p); err != nil {
			return err
		}
	}
	return nil
}

// The CORS headers.
const (
	headerOrigin               = "Origin"
	headerRequestMethod        = "Access-Control-Request-Method"
	headerRequestHeaders       = "Access-Control-Request-Headers"
	headerAllowOrigin          = "Access-Control-Allow-Origin"
	headerAllowMethods         = "Access-Control-Allow-Methods"
	headerAllowHeaders         = "Access-Control-Allow-Headers"
	headerExposeHeaders        = "Access-Control-Expose-Headers"
	headerAllowCredentials     = "Access-Control-Allow-Credentials"
	headerMaxAge               = "Access-Control-Max-Age"
	invalidCORSRequest         = "Invalid CORS request" // Spring's words
	crossOriginRefusedTemplate = "Cross-origin %s refused: this origin does not allow pages of other origins to change state here."
)

// corsVary is what an answer of a route with a policy varies by, as
// Spring's DefaultCorsProcessor says on every answer it sees: caches must
// not give one origin's answer to another.
var corsVary = []string{headerOrigin, headerRequestMethod, headerRequestHeaders}

// crossOrigin returns the Origin of a request from another origin than
// the one it was sent to (Spring's CorsUtils.isCorsRequest), or "".
func crossOrigin(r *http.Request) string {
	v := r.Header[headerOrigin]
	if len(v) == 0 || v[0] == "" {
		return ""
	}
	origin := v[0]
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return origin // "null" (a sandboxed page, a file) or junk: another origin
	}
	scheme := r.URL.Scheme // set by the forwarded headers, when believed
	if scheme == "" {
		scheme = "http"
		if r.TLS != nil {
			scheme = "https"
		}
	}
	if strings.EqualFold(u.Scheme, scheme) && sameHost(u.Host, r.Host, scheme) {
		return ""
	}
	return origin
}

// sameHost compares two host[:port]s of scheme, a missing port being
// the scheme's default one.
func sameHost(a, b, scheme string) bool {
	withPort := func(h string) string {
		if strings.LastIndexByte(h, ':') > strings.LastIndexByte(h, ']') {
			return h
		}
		if scheme == "https" {
			return h + ":443"
		}
		return h + ":80"
	}
	return strings.EqualFold(withPort(a), withPort(b))
}

// IsPreflight reports whether r is a browser's CORS preflight: OPTIONS
// with Origin and Access-Control-Request-Method. A browser sends no
// credentials with one, so authentication must let it through to the
// dispatcher, which answers it (Spring's CorsFilter runs before
// authorization for the same reason).
func IsPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && len(r.Header[headerRequestMethod]) > 0 && len(r.Header[headerOrigin]) > 0
}

// answerPreflight answers a preflight from another origin: 200 with the
// Access-Control-* headers when the path has a route for the requested
// method and its policy allows the origin, the method and the headers;
// otherwise 403, as Spring answers a preflight that no CORS policy
// allows, for a path without such a route too (Spring Boot's static
// resources take every path there).
func (d *Dispatcher) answerPreflight(ex *exchange, r *http.Request, origin string) {
	method := r.Header.Get(headerRequestMethod)
	probe := *r // the request the preflight asks about, for the ServeMux
	probe.Method = method
	m := muxWriter{w: &headerSink{}}
	d.mux.ServeHTTP(&m, &probe)
	h := ex.Header()
	h["Vary"] = corsVary
	var policy *corsPolicy
	if m.code == 0 {
		policy = m.group.cors
		ex.pattern = m.group.pattern // the route label of the observations
	}
	if policy == nil || !policy.preflight(h, r, origin, method) {
		d.fail(ex, r, &Error{Status: http.StatusForbidden, Detail: invalidCORSRequest})
		return
	}
	h.Set("Content-Length", "0")
	ex.WriteHeader(http.StatusOK)
}

// admitCrossOrigin applies the group's CORS policy and the cross-origin
// protection to a request, and answers 403 to one they refuse.
func (d *Dispatcher) admitCrossOrigin(ex *exchange, r *http.Request, g *group) bool {
	if g.cors != nil {
		ex.Header()["Vary"] = g.cors.vary
		if origin := crossOrigin(r); origin != "" {
			if g.cors.actual(ex.Header(), r, origin) {
				return true // an origin the route trusts
			}
			d.fail(ex, r, &Error{Status: http.StatusForbidden, Detail: invalidCORSRequest})
			return false
		}
	}
	if err := d.crossOrigin.Check(r); err != nil {
		d.fail(ex, r, &Error{Status: http.StatusForbidden, Detail: fmt.Sprintf(crossOriginRefusedTemplate, Clip(r.Method)), Err: err})
		return false
	}
	return true
}

// headerSink is the ResponseWriter of a preflight's probe of the
// ServeMux: what the ServeMux writes there is not the answer.
type headerSink struct{ h http.Header }

func (s *headerSink) Header() http.Header {
	if s.h == nil {
		s.h = http.Header{}
	}
	return s.h
}
func (s *headerSink) Write(p []byte) (int, error) { return len(p), nil }
func (s *headerSink) WriteHeader(int)             {}

// compilePolicies gives each group its routes' CORS policy, compiled
// once for the routes that share it, and refuses a group whose routes
// disagree: a preflight asks about a method and a path, and cannot tell
// their routes apart.
func compilePolicies(groups []*group) []error {
	var errs []error
	compiled := map[*CORS]*corsPolicy{}
	for _, g := range groups {
		g.varyAccept = varyAccept
		if len(g.routes) == 0 {
			continue
		}
		c := g.routes[0].decl.CORS
		if other := slices.IndexFunc(g.routes, func(rt *route) bool { return rt.decl.CORS != c }); other >= 0 {
			errs = append(errs, fmt.Errorf("route %s: has another CORS policy than route %s, with which it shares a method and a pattern", g.routes[other].name, g.routes[0].name))
			continue
		}
		p, seen := compiled[c]
		if !seen {
			var err error
			if p, err = compileCORS(c); err != nil {
				errs = append(errs, fmt.Errorf("route %s: CORS: %w", g.routes[0].name, err))
				continue
			}
			compiled[c] = p
		}
		if p == nil {
			continue
		}
		g.cors, g.varyAccept = p, p.varyAccept
		for _, rt := range g.routes {
			rt.cors = p
		}
	}
	return errs
}
