package boot

import (
	"errors"
	"path"
	"strings"

	"github.com/springport/greeter/framework/config"
)

// contextPathKey is Spring Boot's server.servlet.context-path: the prefix
// that every route of server.port lives under, the management endpoints
// on that port included (a servlet container serves a Spring application
// under its "context path"). The dispatcher strips it before it chooses a
// route (dispatch.Options.ContextPath), so that the metrics' uri label
// and /actuator/mappings leave it out, as Spring's do. A management port
// of its own ignores it, as Spring does: management.server.base-path is
// that port's prefix.
const contextPathKey = "server.servlet.context-path"

// contextPath reads the context path as Spring Boot does: blanks around
// it and one trailing slash are dropped ("/" is the root, "" as unset),
// then it must start with / and not end with one. Spring stops there;
// a path with a query, a fragment or a segment the client's path would
// be cleaned of (//, . or ..) could match no request, so it is refused
// too.
func contextPath(s string) (string, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, "/")
	if s == "" {
		return "", nil
	}
	if !strings.HasPrefix(s, "/") || strings.HasSuffix(s, "/") {
		return "", errors.New("want a path that starts with / and does not end with / (such as /api); empty for none")
	}
	if strings.ContainsAny(s, "?#") || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return "", errors.New("want a path without ?, #, spaces or control characters")
	}
	if path.Clean(s) != s {
		return "", errors.New("want a clean path: no empty, . or .. segment")
	}
	return s, nil
}

// bindContextPath reads server.servlet.context-path.
func bindContextPath(b *config.Binder) string {
	return config.Bind(b, contextPathKey, "", contextPath, "the path every route lives under (/api, say), the management endpoints on server.port included; none: the root")
}

// cookiePathUnder is the session cookie's path: as with Spring Session,
// the context path followed by / unless server.servlet.session.cookie.path
// is set, so that the browser sends the cookie only to this application.
func cookiePathUnder(env *config.Environment, contextPath, bound string) string {
	if contextPath == "" || isSet(env, cookiePath) {
		return bound
	}
	return contextPath + "/"
}
