package dispatch

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// corsPolicy is a CORS checked and made ready for the hot path.
type corsPolicy struct {
	origins     []string // lower case, without a trailing slash
	anyOrigin   bool
	patterns    []*regexp.Regexp
	anyMethod   bool
	methods     []string // upper case
	allowMethod string   // the methods, as Access-Control-Allow-Methods says them
	anyHeader   bool
	headers     []string
	expose      string // Access-Control-Expose-Headers; "" for none
	credentials bool
	maxAge      string // Access-Control-Max-Age; "" for none
	vary        []string
	varyAccept  []string // vary with Accept, for a negotiated answer
}

// compileCORS checks c and makes its policy; nil for a nil or disabled c.
func compileCORS(c *CORS) (*corsPolicy, error) {
	if !c.Enabled() {
		return nil, nil
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	p := &corsPolicy{credentials: c.AllowCredentials, vary: corsVary,
		varyAccept: append(slices.Clip(corsVary), "Accept")}
	p.varyAccept = slices.Clip(p.varyAccept)
	for _, o := range c.AllowedOrigins {
		o = strings.TrimSuffix(strings.TrimSpace(o), "/")
		if o == "*" {
			p.anyOrigin = true
		}
		p.origins = append(p.origins, strings.ToLower(o))
	}
	for _, s := range c.AllowedOriginPatterns {
		re, _ := compileOriginPattern(s) // checked above
		p.patterns = append(p.patterns, re)
	}
	methods := c.AllowedMethods
	if len(methods) == 0 {
		methods = []string{http.MethodGet, http.MethodHead}
	}
	for _, m := range methods {
		m = strings.ToUpper(strings.TrimSpace(m))
		if m == "*" {
			p.anyMethod = true
		}
		p.methods = append(p.methods, m)
	}
	p.allowMethod = strings.Join(p.methods, ",")
	for _, h := range c.AllowedHeaders {
		h = strings.TrimSpace(h)
		if h == "*" {
			p.anyHeader = true
		}
		p.headers = append(p.headers, h)
	}
	p.expose = strings.Join(c.ExposedHeaders, ",")
	if c.MaxAge > 0 {
		p.maxAge = strconv.FormatInt(int64(c.MaxAge/time.Second), 10)
	}
	return p, nil
}

// originPortList is the optional port list at the end of an origin
// pattern: ":[8080,8081]" or ":[*]".
var originPortList = regexp.MustCompile(`^(.*):\[(\*|\d+(?:,\d+)*)\]$`)

// compileOriginPattern turns an origin pattern into a regular expression
// that matches a whole origin, as Spring's OriginPattern does: "*" is any
// text, the rest is literal, and a port list matches one of its ports
// (":[*]" any port, or none).
func compileOriginPattern(s string) (*regexp.Regexp, error) {
	s = strings.TrimSuffix(strings.TrimSpace(s), "/")
	if s == "" {
		return nil, errors.New("an origin pattern is empty")
	}
	var ports string
	if m := originPortList.FindStringSubmatch(s); m != nil {
		s, ports = m[1], m[2]
	}
	parts := strings.Split(s, "*")
	for i, part := range parts {
		parts[i] = regexp.QuoteMeta(part)
	}
	expr := "^" + strings.Join(parts, ".*")
	switch {
	case ports == "*":
		expr += `(:\d+)?`
	case ports != "":
		expr += ":(" + strings.ReplaceAll(ports, ",", "|") + ")"
	}
	re, err := regexp.Compile(expr + "$")
	if err != nil {
		return nil, fmt.Errorf("origin pattern %q: %v", s, err)
	}
	return re, nil
}

// allowOrigin is the Access-Control-Allow-Origin for origin, or "" when
// the policy does not allow it.
func (p *corsPolicy) allowOrigin(origin string) string {
	o := strings.TrimSuffix(origin, "/")
	if p.anyOrigin {
		return "*"
	}
	for _, allowed := range p.origins {
		if strings.EqualFold(o, allowed) {
			return origin
		}
	}
	for _, re := range p.patterns {
		if re.MatchString(o) {
			return origin
		}
	}
	return ""
}

// allowsMethod reports whether method may be used across origins.
func (p *corsPolicy) allowsMethod(method string) bool {
	return p.anyMethod || slices.Contains(p.methods, method)
}

// allowHeaders is what a preflight's Access-Control-Allow-Headers says
// of the requested headers: those the policy allows, as Spring gives
// them. ok is false when headers were requested and none is allowed.
func (p *corsPolicy) allowHeaders(requested string) (allowed string, ok bool) {
	if strings.TrimSpace(requested) == "" {
		return "", true
	}
	var out []string
	for h := range strings.SplitSeq(requested, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if p.anyHeader || slices.ContainsFunc(p.headers, func(a string) bool { return strings.EqualFold(a, h) }) {
			out = append(out, h)
		}
	}
	return strings.Join(out, ","), len(out) > 0
}

// actual sets the headers of an allowed cross-origin request from origin,
// or reports that the policy does not allow it.
func (p *corsPolicy) actual(h http.Header, r *http.Request, origin string) bool {
	allow := p.allowOrigin(origin)
	if allow == "" || !p.allowsMethod(r.Method) {
		return false
	}
	h.Set(headerAllowOrigin, allow)
	p.common(h)
	return true
}

// preflight sets the headers of an allowed preflight from origin for
// method, or reports that the policy does not allow it.
func (p *corsPolicy) preflight(h http.Header, r *http.Request, origin, method string) bool {
	allow := p.allowOrigin(origin)
	if allow == "" || !p.allowsMethod(method) {
		return false
	}
	headers, ok := p.allowHeaders(strings.Join(r.Header.Values(headerRequestHeaders), ","))
	if !ok {
		return false
	}
	h.Set(headerAllowOrigin, allow)
	if p.anyMethod {
		h.Set(headerAllowMethods, method)
	} else {
		h.Set(headerAllowMethods, p.allowMethod)
	}
	if headers != "" {
		h.Set(headerAllowHeaders, headers)
	}
	p.common(h)
	if p.maxAge != "" {
		h.Set(headerMaxAge, p.maxAge)
	}
	return true
}

// common sets the headers that preflights and actual requests share.
func (p *corsPolicy) common(h http.Header) {
	if p.expose != "" {
		h.Set(headerExposeHeaders, p.expose)
	}
	if p.credentials {
		h.Set(headerAllowCredentials, "true")
	}
}
