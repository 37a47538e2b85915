// Package api is the service's HTTP surface: its routes, the handlers behind
// them, and the one table that gives domain errors their statuses.
package api

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/domain/number"
	"github.com/springport/greeter/framework/dispatch"
)

// Typed path variables and query parameters, shared by routes and handlers.
var (
	helloID      = dispatch.Path[int32]("id")
	messageIndex = dispatch.Path[int32]("index")
	searchParam1 = dispatch.Query[int32]("param1")
	searchParam2 = dispatch.OptionalQuery[uuid.UUID]("param2")
)

// NumberSource gives the number component instance that serves a request;
// which instance that is depends on the component's scope.
type NumberSource func(ctx context.Context) (*number.Number, error)

// Routes returns every endpoint of the service. paging bounds the pages of
// the message list; valA and valB give the number components behind
// /api/number/val-a and /api/number/val-b.
//
// The routes that reach a store may answer 503 when the store's engine
// cannot be reached (see Classify); the in-memory stores never do. Those
// that add text may answer 507 when the store is full.
func Routes(greeting string, messages message.Store, paging Paging, valA, valB NumberSource) []dispatch.Route {
	unavailable := []int{http.StatusServiceUnavailable}
	full := []int{http.StatusServiceUnavailable, http.StatusInsufficientStorage}
	return []dispatch.Route{
		{Method: "GET", Pattern: "/api/hello", Handler: dispatch.Returns(handleHello(greeting))},
		{Method: "GET", Pattern: "/api/hi", Handler: dispatch.Returns(handleHi())},
		{Method: "GET", Pattern: "/api/nothing", Handler: dispatch.Runs(handleNothing())},
		{Method: "GET", Pattern: "/api/hello/{id}", Inputs: []dispatch.Input{helloID}, Handler: dispatch.Returns(handleHelloID(greeting))},

		{Method: "GET", Pattern: "/api/messages", Errors: unavailable, Inputs: []dispatch.Input{pageNumber, pageSize}, Headers: listHeaders, Handler: dispatch.Streams(handleListMessages(messages, paging))},
		{Method: "POST", Pattern: "/api/messages", Errors: full, Status: http.StatusCreated, Handler: dispatch.Accepts(handleCreateMessage(messages))},
		{Method: "GET", Pattern: "/api/messages/{index}", Errors: unavailable, Inputs: []dispatch.Input{messageIndex}, Handler: dispatch.Returns(handleGetMessage(messages))},
		{Method: "PUT", Pattern: "/api/messages/{index}", Errors: full, Inputs: []dispatch.Input{messageIndex}, Status: http.StatusNoContent, Handler: dispatch.Accepts(handleReplaceMessage(messages))},
		{Method: "DELETE", Pattern: "/api/messages/{index}", Errors: unavailable, Inputs: []dispatch.Input{messageIndex}, Status: http.StatusNoContent, Handler: dispatch.Runs(handleRemoveMessage(messages))},
		{Method: "GET", Pattern: "/api/messages/search", Inputs: []dispatch.Input{searchParam1, searchParam2}, Handler: dispatch.Runs(handleSearch())},

		{Method: "GET", Pattern: "/api/number/val-a", Errors: unavailable, Handler: dispatch.Returns(handleNumber(valA))},
		{Method: "GET", Pattern: "/api/number/val-b", Errors: unavailable, Handler: dispatch.Returns(handleNumber(valB))},
	}
}
