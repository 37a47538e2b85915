package server

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
)

// The session cookie's settings, with Spring Boot's names.
const (
	cookieName     = "server.servlet.session.cookie.name"
	cookiePath     = "server.servlet.session.cookie.path"
	cookieDomain   = "server.servlet.session.cookie.domain"
	cookieHTTPOnly = "server.servlet.session.cookie.http-only"
	cookieSecure   = "server.servlet.session.cookie.secure"
	cookieSameSite = "server.servlet.session.cookie.same-site"
	cookieMaxAge   = "server.servlet.session.cookie.max-age"
)

// bindSessionCookie reads server.servlet.session.cookie.*: the cookie that
// carries the session id, as Spring Boot hands these settings to Spring
// Session. Unset, each is Spring Session's default (SESSION, /, HttpOnly,
// SameSite=Lax, Secure over TLS, no Max-Age). A value the browser would
// drop or ignore (a name with a space, a path not starting with /,
// same-site=none without secure=true) stops start-up rather than leave
// every request without its session. As with Spring Session, the path is
// the context path followed by / unless cookie.path is set, so that the
// browser sends the cookie only to this application.
func bindSessionCookie(b *config.Binder, contextPath string) component.SessionCookie {
	sc := component.SessionCookie{
		Name:     config.Bind(b, cookieName, "SESSION", cookieToken, "the session cookie's name (JSESSIONID, say); only a cookie of this name resumes a session"),
		Path:     config.Bind(b, cookiePath, "/", cookiePathValue, "the paths the browser sends the session cookie back to"),
		Domain:   config.Bind(b, cookieDomain, "", cookieDomainValue, "the domain the browser sends the session cookie back to (unset: only the host that set it)"),
		HTTPOnly: new(config.Bind(b, cookieHTTPOnly, true, config.Bool, "hides the session cookie from scripts (HttpOnly)")),
	}
	// Unset, secure follows the request: Secure over TLS. An empty
	// default keeps --help from claiming true or false.
	if s := config.Bind(b, cookieSecure, "", boolWord, "true: the session cookie goes over TLS only; false: never marked Secure; unset: Secure when the request came over TLS"); s != "" {
		sc.Secure = new(s == "true")
	}
	switch config.Bind(b, cookieSameSite, "lax", config.OneOf("strict", "lax", "none"), "strict, lax or none (in any case): the session cookie's SameSite; none needs secure=true") {
	case "strict":
		sc.SameSite = http.SameSiteStrictMode
	case "none":
		sc.SameSite = http.SameSiteNoneMode
		// Spring writes SameSite=None whatever secure says; browsers
		// then drop the cookie unless it is Secure, and every request
		// opens a new session. Refused here, as that failure is silent.
		if sc.Secure == nil || !*sc.Secure {
			b.Refuse(cookieSameSite, "browsers drop a SameSite=None cookie that is not Secure, so no session would last; set "+cookieSecure+"=true with it")
		}
	default:
		sc.SameSite = http.SameSiteLaxMode
	}
	if contextPath != "" && !b.IsSet(cookiePath) {
		sc.Path = contextPath + "/"
	}
	if s := config.Bind(b, cookieMaxAge, "", cookieAge, "how long the browser keeps the session cookie (unset: until it closes); the session still ends after its timeout"); s != "" {
		sc.MaxAge, _ = cookieAgeValue(s)
	}
	return sc
}

// boolWord parses a boolean as config.Bool does, and writes it back as
// true or false.
func boolWord(s string) (string, error) {
	v, err := config.Bool(s)
	return strconv.FormatBool(v), err
}

// cookieToken takes a cookie name: a token of RFC 6265, without spaces,
// separators or control characters. net/http would silently write no
// Set-Cookie at all for another.
func cookieToken(s string) (string, error) {
	if err := (&http.Cookie{Name: s}).Valid(); err != nil {
		return "", errors.New("want a cookie name: letters, digits and !#$%&'*+-.^_`|~, no space, separator or =")
	}
	return s, nil
}

// cookiePathValue takes a cookie path: starting with /, as browsers
// ignore any other, without ; or control characters.
func cookiePathValue(s string) (string, error) {
	if !strings.HasPrefix(s, "/") || (&http.Cookie{Name: "n", Path: s}).Valid() != nil {
		return "", errors.New("want a path starting with /, without ; or control characters")
	}
	return s, nil
}

// cookieDomainValue takes a cookie domain: a host name (a leading dot is
// allowed and ignored by browsers) or an IP address.
func cookieDomainValue(s string) (string, error) {
	if s != "" && (&http.Cookie{Name: "n", Domain: s}).Valid() != nil {
		return "", errors.New("want a domain such as example.com (or an IP address)")
	}
	return s, nil
}

// cookieAge takes the cookie's max-age, checked by cookieAgeValue, as it
// was written (so that --help shows no default).
func cookieAge(s string) (string, error) {
	_, err := cookieAgeValue(s)
	return s, err
}

// cookieAgeValue parses a max-age of at least one second: a cookie's age
// is counted in whole seconds, and Max-Age=0 tells the browser to forget
// it at once. Spring's -1 (no Max-Age) is what leaving it unset does.
func cookieAgeValue(s string) (time.Duration, error) {
	d, err := config.Duration(s)
	if err != nil {
		return 0, errors.New("want a positive duration such as 30m or 7d (unset: no Max-Age, the cookie ends when the browser closes)")
	}
	if d < time.Second {
		return 0, errors.New("want at least 1s: a cookie's age is counted in whole seconds, and 0 deletes it")
	}
	return d, nil
}
