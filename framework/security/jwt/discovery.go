package jwt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// discovery finds an issuer's JWK set from issuer-uri alone, as Spring's
// JwtDecoders.fromIssuerLocation does: it reads the issuer's metadata
// from the first of these that answers 200, the issuer's path (if any)
// placed as OpenID Connect Discovery 1.0 and RFC 8414 place it:
//
//	<issuer>/.well-known/openid-configuration
//	<host>/.well-known/openid-configuration<path>
//	<host>/.well-known/oauth-authorization-server<path>
//
// The metadata's issuer must be issuer-uri itself, and its jwks_uri is
// where the keys are. A 4xx moves on to the next; a refused connection, a
// timeout or a 5xx means the issuer cannot be reached now, and discovery
// is tried again later (see remoteKeys, which bounds how often).
type discovery struct {
	client *http.Client
	issuer string

	mu     sync.Mutex
	jwkSet string // found, once found
}

// errIssuerUnreachable marks a discovery that may succeed if tried again.
var errIssuerUnreachable = errors.New("the issuer cannot be reached")

// jwkSetURI returns the JWK set's URI, discovering it if not yet found.
func (d *discovery) jwkSetURI(ctx context.Context) (string, error) {
	if err := d.resolve(ctx); err != nil {
		return "", err
	}
	return d.jwkSet, nil
}

// resolve finds the JWK set's URI, unless found already.
func (d *discovery) resolve(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.jwkSet != "" {
		return nil
	}
	locations, err := metadataLocations(d.issuer)
	if err != nil {
		return err
	}
	for _, loc := range locations {
		body, err := getDocument(ctx, d.client, loc, "application/json")
		var status *statusError
		if errors.As(err, &status) && status.code >= 400 && status.code < 500 {
			continue
		}
		if err != nil {
			return fmt.Errorf("%w: %w", errIssuerUnreachable, err)
		}
		var meta struct {
			Issuer  string `json:"issuer"`
			JWKSURI string `json:"jwks_uri"`
		}
		if err := json.Unmarshal(body, &meta); err != nil {
			return fmt.Errorf("%s does not hold the issuer's metadata (JSON): %w", loc, err)
		}
		if meta.Issuer != d.issuer {
			return fmt.Errorf("the issuer %q that %s names is not issuer-uri", meta.Issuer, loc)
		}
		if meta.JWKSURI == "" {
			return fmt.Errorf("%s names no jwks_uri", loc)
		}
		d.jwkSet = meta.JWKSURI
		return nil
	}
	return fmt.Errorf("no discovery document: %s answered 4xx", strings.Join(locations, ", "))
}

// metadataLocations are where the metadata of issuer may be, in the order
// Spring tries them.
func metadataLocations(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, errors.New("want an http:// or https:// URL")
	}
	path := strings.TrimSuffix(u.Path, "/")
	host := u.Scheme + "://" + u.Host
	if path == "" {
		return []string{host + "/.well-known/openid-configuration", host + "/.well-known/oauth-authorization-server"}, nil
	}
	return []string{
		host + path + "/.well-known/openid-configuration",
		host + "/.well-known/openid-configuration" + path,
		host + "/.well-known/oauth-authorization-server" + path,
	}, nil
}
