package component

import (
	"cmp"
	"net/http"
	"time"
)

// SessionCookie shapes the cookie that carries a client's session id: the
// settings server.servlet.session.cookie.* stand for. Its zero value is
// the cookie Spring Session writes by default: named SESSION, sent back to
// every path of the host that set it, hidden from scripts (HttpOnly), not
// sent on cross-site subrequests (SameSite=Lax), Secure when the request
// came over TLS, and without Max-Age, so that the browser forgets it when
// it closes.
type SessionCookie struct {
	Name   string // empty: SESSION
	Path   string // empty: /
	Domain string // empty: the host that set it, and only it
	// MaxAge is how long the browser keeps the cookie; zero writes none.
	// It bounds the cookie only: the session still ends after its idle
	// timeout, whatever the cookie's age.
	MaxAge time.Duration
	// SameSite is the cookie's SameSite attribute; zero (or
	// http.SameSiteDefaultMode) means Lax. With None, browsers drop the
	// cookie unless it is Secure too.
	SameSite http.SameSite
	// Secure, when set, says whether the cookie is sent over TLS only;
	// nil marks it Secure exactly when the request came over TLS.
	Secure *bool
	// HTTPOnly, when set, says whether scripts are kept from the cookie;
	// nil means true.
	HTTPOnly *bool
}

// withDefaults fills the fields whose zero value stands for a default.
func (sc SessionCookie) withDefaults() SessionCookie {
	sc.Name, sc.Path = cmp.Or(sc.Name, "SESSION"), cmp.Or(sc.Path, "/")
	if sc.SameSite == 0 || sc.SameSite == http.SameSiteDefaultMode {
		sc.SameSite = http.SameSiteLaxMode
	}
	return sc
}

// cookie returns the session cookie carrying id for the response to r;
// remove writes one that tells the browser to forget it (with the same
// name, path and domain, or the browser would keep the old one).
func (sc SessionCookie) cookie(r *http.Request, id string, remove bool) *http.Cookie {
	ck := &http.Cookie{Name: sc.Name, Value: id, Path: sc.Path, Domain: sc.Domain, SameSite: sc.SameSite,
		Secure: r.TLS != nil, HttpOnly: true}
	if sc.Secure != nil {
		ck.Secure = *sc.Secure
	}
	if sc.HTTPOnly != nil {
		ck.HttpOnly = *sc.HTTPOnly
	}
	switch {
	case remove:
		ck.MaxAge = -1 // written as Max-Age=0
	case sc.MaxAge > 0:
		// Expires too, as Spring Session writes it, for clients that
		// predate Max-Age; both say the same.
		secs := int((sc.MaxAge + time.Second - 1) / time.Second)
		ck.MaxAge, ck.Expires = secs, time.Now().Add(time.Duration(secs)*time.Second)
	}
	return ck
}
