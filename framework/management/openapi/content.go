package openapi

import "github.com/springport/greeter/framework/dispatch"

// responseContentKey is the key under which a response's media type is
// described in its content map: the media type, except text/xml, which is
// keyed by the Content-Type it is written with (text/xml;charset=UTF-8).
//
// text/xml is an alias of application/xml (RFC 7303): the same documents,
// both offered as Spring's XML converter offers them. Code generators that
// give a response one field per syntax key it by media type name, not by
// parsed type: oapi-codegen (v2.8.2, pkg/codegen/operations.go) names the
// field of both application/xml and text/xml XML200, so a document that
// keys both bare makes a client with duplicate fields that does not
// compile. Keyed with its charset, text/xml is still described, exactly as
// greeter answers it, and such a generator types the XML answer once,
// from application/xml, and leaves the alias to the raw response.
// OpenAPI allows parameters in a content key, and tools that match a
// response to its description (kin-openapi, schemathesis) try the full
// Content-Type first. Request bodies keep the bare text/xml: a body in it
// is read in whatever charset it names.
func responseContentKey(mt dispatch.MediaType) string {
	if mt.Type == "text/xml" && mt.ContentType != "" {
		return mt.ContentType
	}
	return mt.Type
}
