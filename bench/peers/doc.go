// Module peers holds the Go frameworks that bench/run measures beside the
// service and the bare net/http reference (bench/reference): chi, gin, echo,
// huma (on net/http's ServeMux) and fiber (on fasthttp), each serving the
// five measured endpoints written idiomatically for that framework, with no
// logging middleware and the reference's server limits; and stack, the
// libraries a Go user assembles for what the service does by default (chi
// with its request-ID and recoverer middleware, OpenTelemetry's trace-context
// propagator, a client_golang timer per route, Accept negotiation of JSON and
// XML with Vary, problem documents). It is a module of its own so that the
// service's go.mod does not grow: one command per framework under cmd/, each
// taking --server.port=N like the service.
//
//	cd bench/peers && go test ./...
//
// checks that each answers the measured requests as the reference does, and
// that stack answers as the service in this checkout does (it builds and
// starts cmd/greeter).
package peers
