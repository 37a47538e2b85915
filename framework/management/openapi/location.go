package openapi

import (
	"net/http"

	"github.com/springport/greeter/framework/dispatch"
)

// locationHeader adds the Location header to the response of a route
// whose result is a Redirect, Created or CreatedAt (RouteInfo.Location):
// the dispatcher writes it, so the route's author does not list it in
// Headers. Its value is a URI reference, as RFC 9110 §10.2.2 has it: an
// absolute URL, or a path the client resolves against the request's.
func locationHeader(resp object, r dispatch.RouteInfo) {
	if !r.Location {
		return
	}
	headers, _ := resp["headers"].(object)
	if headers == nil {
		headers = object{}
		resp["headers"] = headers
	}
	description := "Where the client is sent."
	if r.Status == http.StatusCreated {
		description = "The resource created."
	}
	headers["Location"] = object{"description": description, "schema": object{"type": "string", "format": "uri-reference"}}
}
