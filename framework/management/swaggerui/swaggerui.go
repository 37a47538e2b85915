// Package swaggerui serves Swagger UI, a web page on which a service's
// users read its HTTP API and try it, as springdoc's users do, from the
// OpenAPI document that package openapi serves. Its files are embedded in
// the binary: the built distribution of the npm package swagger-ui-dist
// (Apache 2.0; dist/ holds its licence and notice, and dist/VERSION says
// which version), started by a script of this package's own that points it
// at /v3/api-docs.
//
// The paths are springdoc's: /swagger-ui.html redirects to
// /swagger-ui/index.html, and the assets are under /swagger-ui/.
package swaggerui

import (
	"embed"
	"io/fs"
	"net/http"

	"github.com/springport/greeter/framework/dispatch"
)

//go:embed dist
var dist embed.FS

// Entry is where users open the page, as with springdoc.
const Entry = "/swagger-ui.html"

// Routes returns the routes that serve the page and its assets.
func Routes() []dispatch.Route {
	files, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // dist is embedded above
	}
	assets := http.StripPrefix("/swagger-ui", http.FileServerFS(files))
	return []dispatch.Route{
		{Method: "GET", Pattern: Entry, Summary: "Swagger UI",
			Handler: dispatch.Plain(http.HandlerFunc(redirectToIndex))},
		{Method: "GET", Pattern: "/swagger-ui/{file...}", Summary: "Swagger UI's files",
			Handler: dispatch.Plain(assets)},
	}
}

// redirectToIndex sends the entry to the page, under the context path
// the service is served at (server.servlet.context-path), if any.
func redirectToIndex(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, dispatch.ContextPath(r)+"/swagger-ui/index.html", http.StatusFound)
}
