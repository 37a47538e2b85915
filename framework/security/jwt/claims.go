package jwt

// What a verified token says: whether it is for this service (iss, aud),
// and who it names with which authorities, as Spring Security reads them.

import (
	"context"
	"fmt"
	"strings"

	jwxjwt "github.com/lestrrat-go/jwx/v3/jwt"
)

// checkClaims checks iss and aud as Spring's JwtIssuerValidator and
// JwtAudienceValidator do.
func (a *Authenticator) checkClaims(_ context.Context, tok jwxjwt.Token) error {
	if a.issuer != "" {
		if iss, _ := tok.Issuer(); iss != a.issuer {
			return reasonError("The iss claim is not valid")
		}
	}
	if len(a.audiences) > 0 {
		aud, _ := tok.Audience()
		for _, want := range a.audiences {
			for _, got := range aud {
				if got == want {
					return nil
				}
			}
		}
		return reasonError("The aud claim is not valid")
	}
	return nil
}

// name is the principal's name: the value of the principal claim (sub),
// written as a string; empty when the token has none, as Spring's name
// is null then.
func (a *Authenticator) name(tok jwxjwt.Token) string {
	var v any
	if tok.Get(a.principal, &v) != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return v
	case nil:
		return ""
	case float64, bool, int64, int:
		return fmt.Sprint(v)
	}
	return ""
}

// authorities are the token's scopes, prefixed, as Spring's
// JwtGrantedAuthoritiesConverter finds them: the authorities claim, or
// unset, scope, else scp; a string is split at the delimiter, a list
// gives one per string element.
func (a *Authenticator) authorities(tok jwxjwt.Token) []string {
	var v any
	found := false
	if a.claim != "" {
		found = tok.Get(a.claim, &v) == nil
	} else {
		found = tok.Get("scope", &v) == nil || tok.Get("scp", &v) == nil
	}
	if !found {
		return nil
	}
	var out []string
	switch v := v.(type) {
	case string:
		for s := range strings.SplitSeq(v, a.delimiter) {
			if s != "" {
				out = append(out, a.prefix+s)
			}
		}
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, a.prefix+s)
			}
		}
	case []string:
		for _, s := range v {
			out = append(out, a.prefix+s)
		}
	}
	return out
}
