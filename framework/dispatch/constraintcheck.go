package dispatch

import (
	"net/netip"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Checking a value against the rules constraint.go parsed, and the
// syntax of an email address and a URL as Hibernate Validator judges
// them: what runs for each request, apart from what runs once when the
// routes are compiled.

// checkText checks a text that is there (not a nil pointer) and calls
// add with each violated constraint's message.
func (r *rules) checkText(s string, add func(string)) {
	if r.required && isBlank(s) {
		add(msgBlank)
	}
	if r.hasSize {
		if n := utf8.RuneCountInString(s); n < r.sizeMin || (r.sizeMax >= 0 && n > r.sizeMax) {
			add(r.sizeMsg)
		}
	}
	if r.re != nil && !r.re.MatchString(s) {
		add(r.patternMsg)
	}
	// An empty text is a well-formed address and URL, as Hibernate's
	// @Email and @URL take it: required is what refuses one.
	if r.email && s != "" && !isEmail(s) {
		add(msgEmail)
	}
	if r.url && s != "" && !isURL(s) {
		add(msgURL)
	}
	if r.enum != nil && !slices.Contains(r.enum, s) {
		add(r.enumMsg)
	}
}

// checkLen checks the number of members of a list or map that is there.
func (r *rules) checkLen(n int, add func(string)) {
	if r.required && n == 0 {
		add(msgEmpty)
	}
	if r.hasSize && (n < r.sizeMin || (r.sizeMax >= 0 && n > r.sizeMax)) {
		add(r.sizeMsg)
	}
}

// checkInt, checkUint and checkFloat check a number's bounds.
func (r *rules) checkInt(n int64, add func(string)) {
	if r.hasMin && n < r.min {
		add(r.minMsg)
	}
	if r.hasMax && n > r.max {
		add(r.maxMsg)
	}
}

func (r *rules) checkUint(n uint64, add func(string)) {
	if r.hasMin && r.min > 0 && n < uint64(r.min) {
		add(r.minMsg)
	}
	if r.hasMax && (r.max < 0 || n > uint64(r.max)) {
		add(r.maxMsg)
	}
}

func (r *rules) checkFloat(f float64, add func(string)) {
	if r.hasMin && f < float64(r.min) {
		add(r.minMsg)
	}
	if r.hasMax && f > float64(r.max) {
		add(r.maxMsg)
	}
}

// isBlank reports whether s has no character but white space, as Java's
// String.isBlank.
func isBlank(s string) bool {
	for _, c := range s {
		if !unicode.IsSpace(c) {
			return false
		}
	}
	return true
}

// isEmail follows Hibernate Validator's EmailValidator: a local part of
// dot-separated atoms (RFC 5322's atext, and any character beyond ASCII)
// of at most 64 bytes, an @, and a domain of labels of letters, digits and
// inner hyphens of at most 255 bytes, or an address literal in brackets.
// A quoted local part, which Hibernate also takes, is refused.
func isEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at > 64 || at == len(s)-1 || len(s)-at-1 > 255 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if !dotSeparated(local, isAtext) {
		return false
	}
	if strings.HasPrefix(domain, "[") && strings.HasSuffix(domain, "]") {
		lit := domain[1 : len(domain)-1]
		if v6, ok := strings.CutPrefix(lit, "IPv6:"); ok {
			a, err := netip.ParseAddr(v6)
			return err == nil && a.Is6()
		}
		a, err := netip.ParseAddr(lit)
		return err == nil && a.Is4()
	}
	return isHostName(domain)
}

// dotSeparated reports whether s is non-empty parts of characters ok
// takes, separated by single dots.
func dotSeparated(s string, ok func(rune) bool) bool {
	for part := range strings.SplitSeq(s, ".") {
		if part == "" {
			return false
		}
		for _, c := range part {
			if !ok(c) {
				return false
			}
		}
	}
	return true
}

func isAtext(c rune) bool {
	return c >= utf8.RuneSelf && c != utf8.RuneError || isAlnum(c) || strings.ContainsRune("!#$%&'*+/=?^_`{|}~-", c)
}

func isAlnum(c rune) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// isHostName reports whether s is dot-separated labels of at most 63
// bytes of letters (any beyond ASCII too), digits and hyphens, none at a
// label's ends.
func isHostName(s string) bool {
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(isAlnum(c) || c == '-' || c >= utf8.RuneSelf && c != utf8.RuneError) {
				return false
			}
		}
	}
	return true
}

// isURL takes an absolute URL as java.net.URL, behind Hibernate's @URL,
// does: a scheme (RFC 3986: a letter, then letters, digits, +, - and .),
// a colon, and no white space or control character; with an authority
// (//…), a host name or address and at most a numeric port; http, https
// and ftp need the authority.
func isURL(s string) bool {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 {
		return false
	}
	scheme, rest := s[:colon], s[colon+1:]
	for i, c := range scheme {
		if !(isAlnum(c) && (i > 0 || !('0' <= c && c <= '9')) || i > 0 && strings.ContainsRune("+-.", c)) {
			return false
		}
	}
	for _, c := range rest {
		if c <= ' ' || c == 0x7f || unicode.IsSpace(c) || c == utf8.RuneError {
			return false
		}
	}
	needsHost := strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https") || strings.EqualFold(scheme, "ftp")
	authority, ok := strings.CutPrefix(rest, "//")
	if !ok {
		return !needsHost && rest != ""
	}
	if end := strings.IndexAny(authority, "/?#"); end >= 0 {
		authority = authority[:end]
	}
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		authority = authority[at+1:]
	}
	host, literal := authority, false
	if strings.HasPrefix(host, "[") {
		end := strings.IndexByte(host, ']')
		if end < 0 {
			return false
		}
		if _, err := netip.ParseAddr(host[1:end]); err != nil {
			return false
		}
		host, authority, literal = "", host[end+1:], true
	} else if colon := strings.IndexByte(host, ':'); colon >= 0 {
		host, authority = host[:colon], host[colon:]
		if host == "" {
			return false
		}
	} else {
		authority = ""
	}
	if port, ok := strings.CutPrefix(authority, ":"); ok {
		for _, c := range port {
			if c < '0' || c > '9' {
				return false
			}
		}
	} else if authority != "" {
		return false
	}
	if host == "" {
		return literal || !needsHost // file:///etc/hosts
	}
	return isHostName(host) || isIPv4(host)
}

func isIPv4(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is4()
}
