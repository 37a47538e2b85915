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

// The tags that group the routes in the service's description.
const (
	TagGreetings = "greetings"
	TagMessages  = "messages"
	TagNumbers   = "numbers"
)

// Tags describe the tags of the routes, for the OpenAPI document.
var Tags = []struct{ Name, Description string }{
	{TagGreetings, "The greeting endpoints: fixed answers in JSON, XML or plain text."},
	{TagMessages, "An ordered collection of text messages, kept in memory or in PostgreSQL."},
	{TagNumbers, "Random numbers from components whose lifecycle app.number.scope chooses."},
}

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
	greetingTag, messageTag, numberTag := []string{TagGreetings}, []string{TagMessages}, []string{TagNumbers}
	unavailable := []int{http.StatusServiceUnavailable}
	full := []int{http.StatusServiceUnavailable, http.StatusInsufficientStorage}
	return []dispatch.Route{
		{Method: "GET", Pattern: "/api/hello", Summary: "The greeting", Tags: greetingTag, Handler: dispatch.Returns(handleHello(greeting))},
		{Method: "GET", Pattern: "/api/hi", Summary: "A short greeting, as plain text", Tags: greetingTag, Handler: dispatch.Returns(handleHi())},
		{Method: "GET", Pattern: "/api/nothing", Summary: "An empty success", Tags: greetingTag, Handler: dispatch.Runs(handleNothing())},
		{Method: "GET", Pattern: "/api/hello/{id}", Summary: "The greeting, addressed to an id", Tags: greetingTag, Inputs: []dispatch.Input{helloID}, Handler: dispatch.Returns(handleHelloID(greeting))},

		{Method: "GET", Pattern: "/api/messages", Summary: "Every message in order, or one page of them", Tags: messageTag, Errors: unavailable, Inputs: []dispatch.Input{pageNumber, pageSize}, Headers: listHeaders, Handler: dispatch.Streams(handleListMessages(messages, paging))},
		{Method: "POST", Pattern: "/api/messages", Summary: "Append a message", Tags: messageTag, Errors: full, Status: http.StatusCreated, Handler: dispatch.Accepts(handleCreateMessage(messages))},
		{Method: "GET", Pattern: "/api/messages/{index}", Summary: "The message at an index", Tags: messageTag, Errors: unavailable, Inputs: []dispatch.Input{messageIndex}, Handler: dispatch.Returns(handleGetMessage(messages))},
		{Method: "PUT", Pattern: "/api/messages/{index}", Summary: "Replace the message at an index", Tags: messageTag, Errors: full, Inputs: []dispatch.Input{messageIndex}, Status: http.StatusNoContent, Handler: dispatch.Accepts(handleReplaceMessage(messages))},
		{Method: "DELETE", Pattern: "/api/messages/{index}", Summary: "Remove the message at an index; later ones move up", Tags: messageTag, Errors: unavailable, Inputs: []dispatch.Input{messageIndex}, Status: http.StatusNoContent, Handler: dispatch.Runs(handleRemoveMessage(messages))},
		{Method: "GET", Pattern: "/api/messages/search", Summary: "Search the messages (checks its parameters, answers nothing)", Tags: messageTag, Inputs: []dispatch.Input{searchParam1, searchParam2}, Handler: dispatch.Runs(handleSearch())},

		{Method: "GET", Pattern: "/api/number/val-a", Summary: "The number of component A, kept as app.number.scope says", Tags: numberTag, Errors: unavailable, Handler: dispatch.Returns(handleNumber(valA))},
		{Method: "GET", Pattern: "/api/number/val-b", Summary: "The number of component B, kept as app.number.scope says", Tags: numberTag, Errors: unavailable, Handler: dispatch.Returns(handleNumber(valB))},
	}
}
