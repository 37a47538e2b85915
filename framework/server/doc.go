// Package server serves an application's handlers on its ports, as Spring
// Boot's embedded web server does: it binds server.* and
// management.server.* (Bind, BindManagement), listens on every port
// before serving any (Ports, Serve), serves TLS from PEM files, PKCS#12
// or JKS key stores and SSL bundles (framework/ssl reads them), re-read
// when they change, HTTP/2 over TLS and as h2c, compresses
// responses, takes the forwarded headers of a trusted proxy, and shuts
// down gracefully or at once.
//
// What lives here and what lives in dispatch follows one rule.
//
//   - dispatch decides per route: which route a request matches (under
//     the context path it is given), content negotiation and conversion,
//     the problem documents, and the CORS policy of each route. It reads
//     no settings, and knows nothing of ports or connections, so that it
//     stands alone as a router does.
//   - server decides per connection and per port: listening and bind
//     addresses, timeouts, TLS, HTTP/2, compression, forwarded headers and
//     shutdown. It also binds the settings of the web layer that dispatch
//     is handed: the context path (server.servlet.context-path, a port's
//     prefix), the CORS policies (CORS) and the session cookie.
//
// So a setting that says how a port serves is read here, and a behaviour
// that depends on which route answers is dispatch's, given to it as an
// option (dispatch.Options.ContextPath, dispatch.WithCORS).
package server
