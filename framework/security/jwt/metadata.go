package jwt

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/springport/greeter/framework/dispatch"
)

// The OAuth 2.0 protected resource metadata (RFC 9728), as Spring
// Security 7 serves it for a resource server (its
// OAuth2ProtectedResourceMetadataFilter) and names it in every Bearer
// challenge of a 401 (its BearerTokenAuthenticationEntryPoint's
// resource_metadata parameter): a client that is refused learns there how
// to send a token. Both are built from the request, as Spring builds
// them: its scheme and host (those a trusted proxy forwarded, with
// server.forward-headers-strategy) and the context path (or the
// forwarded prefix), so that the client is sent back the way it came.

// MetadataPath is where the metadata is served, under the context path.
const MetadataPath = "/.well-known/oauth-protected-resource"

// MetadataPattern is the Spring path pattern of the metadata's paths: the
// document of the service's root, and under it those of its paths (RFC
// 9728's /.well-known/oauth-protected-resource/<path>), which Spring
// answers too. Security leaves them open, as Spring's filter answers
// them before authorization.
const MetadataPattern = MetadataPath + "/**"

// MetadataRoutes serve the metadata: GET (and HEAD) on MetadataPath and
// below it, answered whatever the Accept header says, in JSON, as
// Spring's filter writes it.
func MetadataRoutes() []dispatch.Route {
	h := dispatch.Plain(http.HandlerFunc(serveMetadata))
	return []dispatch.Route{
		{Method: "GET", Pattern: MetadataPath, Summary: "OAuth 2.0 protected resource metadata (RFC 9728)", Handler: h},
		{Method: "GET", Pattern: MetadataPath + "/{path...}", Summary: "OAuth 2.0 protected resource metadata (RFC 9728) of a path", Handler: h},
	}
}

// metadata is the document. Its members are those Spring Security 7
// writes by default, in its order; Spring Boot adds none (no
// authorization_servers, even with issuer-uri set). Spring says true of
// tls_client_certificate_bound_access_tokens, because its decoder checks
// a token's x5t#S256 against the client's certificate (RFC 8705); this
// one does not, so it says false.
type metadata struct {
	Resource                              string   `json:"resource"`
	BearerMethodsSupported                []string `json:"bearer_methods_supported"`
	TLSClientCertificateBoundAccessTokens bool     `json:"tls_client_certificate_bound_access_tokens"`
}

// bearerMethods: a token is read from the Authorization header only, as
// Spring's DefaultBearerTokenResolver does by default.
var bearerMethods = []string{"header"}

// serveMetadata answers the metadata of the resource r names: the
// service's root (under the context path) for MetadataPath itself, the
// path after it otherwise, as Spring takes it out of the request's path.
func serveMetadata(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.EscapedPath(), MetadataPath)
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false) // a URL's & stays &, as Jackson writes it
	_ = enc.Encode(metadata{Resource: rootURL(r) + path, BearerMethodsSupported: bearerMethods})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(bytes.TrimSuffix(body.Bytes(), []byte("\n")))
}

// MetadataURL is where the client that sent r finds the metadata: the
// resource_metadata of a Bearer challenge.
func MetadataURL(r *http.Request) string { return rootURL(r) + MetadataPath }

// rootURL is the URL of the service's root as the client reached it:
// scheme, host and context path (or the prefix a proxy forwarded), as the
// actuator's links are built.
func rootURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + dispatch.ContextPath(r)
}

// quoted escapes s for an RFC 9110 quoted-string: a forwarded host is
// checked to be a host, which may still hold a ".
func quoted(s string) string {
	if !strings.ContainsAny(s, `"\`) {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}

// resourceMetadataParam is the resource_metadata parameter of a Bearer
// challenge to r.
func resourceMetadataParam(r *http.Request) string {
	return `resource_metadata="` + quoted(MetadataURL(r)) + `"`
}
