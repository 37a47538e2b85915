package security

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/springport/greeter/framework/dispatch"
)

// Guard authenticates each request and applies the rules to it, in front
// of the dispatcher's routes (see dispatch.Options.Guard), as Spring
// Security's filter chain does in front of Spring MVC.
type Guard struct {
	// Authenticators are tried in order; the first that finds
	// credentials of its kind decides (Basic, a bearer token...).
	Authenticators []Authenticator
	Rules          *Rules
	// Logger receives a WARN line per refused request, with its request
	// ID and why, never the credentials. Nil discards them.
	Logger *slog.Logger
	// Refused, when set, is told of every refusal: the status (401 or
	// 403) and the reason's kind, for a metric.
	Refused func(status int, reason string)
}

// Reasons a request is refused, as Refused is told them.
const (
	ReasonBadCredentials = "bad_credentials" // credentials given, wrong
	ReasonNoCredentials  = "no_credentials"  // none, where they are needed
	ReasonAccessDenied   = "access_denied"   // a principal without the authority
)

// Spring Security's answers.
const (
	detailUnauthenticated = "Full authentication is required to access this resource"
	detailForbidden       = "Access Denied"
)

// Check is a dispatch.Guard: it sets Spring Security's default headers
// on the answer, finds the principal, and refuses the request with 401
// or 403 as the rules say. Wrong credentials are a 401 whatever the path,
// a permitted one included, as Spring's BasicAuthenticationFilter
// answers them before the rules are looked at. A 401 carries the
// challenge of each authenticator (of the one that refused the
// credentials, when some were given); a 403 carries one only when the
// principal's authenticator is a DeniedChallenger (a bearer token's
// insufficient_scope).
func (g *Guard) Check(w http.ResponseWriter, r *http.Request, requestID func() string) (*http.Request, error) {
	setDefaultHeaders(w.Header(), r.TLS != nil)
	var principal *Principal
	var by Authenticator // the authenticator that found principal
	for _, a := range g.Authenticators {
		p, err := a.Authenticate(r)
		if err != nil {
			f := (*Failure)(nil)
			if !errors.As(err, &f) {
				// Not the client's fault: the keys a token is checked
				// with cannot be fetched, say. Spring answers 500; 503
				// tells the client that trying again later may work.
				if g.Logger != nil {
					g.Logger.LogAttrs(r.Context(), slog.LevelError, "credentials could not be checked",
						slog.String("method", r.Method), slog.String("path", r.URL.Path),
						slog.Any("error", err), slog.String("request_id", requestID()))
				}
				return nil, &dispatch.Error{Status: http.StatusServiceUnavailable, Detail: "the credentials cannot be checked now; try again later"}
			}
			challenge, reason := a.Challenge(r), err.Error()
			if f.Challenge != "" {
				challenge = f.Challenge
			}
			w.Header().Set("WWW-Authenticate", challenge)
			g.refuse(r, requestID, http.StatusUnauthorized, ReasonBadCredentials, reason, "")
			return nil, &dispatch.Error{Status: http.StatusUnauthorized, Detail: reason}
		}
		if p != nil {
			principal, by = p, a
			break
		}
	}
	switch g.Rules.Decide(r.URL.Path, principal) {
	case Unauthenticated:
		for _, a := range g.Authenticators {
			w.Header().Add("WWW-Authenticate", a.Challenge(r))
		}
		g.refuse(r, requestID, http.StatusUnauthorized, ReasonNoCredentials, "no credentials", "")
		return nil, &dispatch.Error{Status: http.StatusUnauthorized, Detail: detailUnauthenticated}
	case Forbidden:
		if d, ok := by.(DeniedChallenger); ok {
			w.Header().Set("WWW-Authenticate", d.DeniedChallenge(r))
		}
		g.refuse(r, requestID, http.StatusForbidden, ReasonAccessDenied, "the principal lacks the authority the path needs", principal.Name)
		return nil, &dispatch.Error{Status: http.StatusForbidden, Detail: detailForbidden}
	}
	if principal == nil {
		return r, nil
	}
	return r.WithContext(WithPrincipal(r.Context(), principal)), nil
}

func (g *Guard) refuse(r *http.Request, requestID func() string, status int, kind, reason, principal string) {
	if g.Refused != nil {
		g.Refused(status, kind)
	}
	if g.Logger == nil {
		return
	}
	attrs := []slog.Attr{slog.String("method", r.Method), slog.String("path", r.URL.Path),
		slog.Int("status", status), slog.String("reason", reason), slog.String("request_id", requestID())}
	if principal != "" {
		attrs = append(attrs, slog.String("principal", principal))
	}
	g.Logger.LogAttrs(r.Context(), slog.LevelWarn, "request refused by security", attrs...)
}

// setDefaultHeaders sets Spring Security's default response headers:
// no MIME sniffing, no framing, no caching (a response that may hold a
// user's data must not be kept by a shared cache), the XSS auditor off
// (as current browsers advise), and on HTTPS only, Strict-Transport-
// Security for a year with the subdomains. The values are shared, not
// copied per request: a handler's Set replaces a slice and its Add
// appends to a full one, a copy, so none is ever written to.
func setDefaultHeaders(h http.Header, tls bool) {
	h["X-Content-Type-Options"] = nosniff
	h["X-Frame-Options"] = deny
	h["Cache-Control"] = noCache
	h["Pragma"] = pragmaNoCache
	h["Expires"] = expired
	h["X-Xss-Protection"] = xssOff
	if tls {
		h["Strict-Transport-Security"] = hsts
	}
}

var (
	nosniff       = []string{"nosniff"}
	deny          = []string{"DENY"}
	noCache       = []string{"no-cache, no-store, max-age=0, must-revalidate"}
	pragmaNoCache = []string{"no-cache"}
	expired       = []string{"0"}
	xssOff        = []string{"0"}
	hsts          = []string{"max-age=31536000 ; includeSubDomains"}
)
