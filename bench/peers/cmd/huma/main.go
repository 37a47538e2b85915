// Command huma serves the measured endpoints with huma on net/http's
// ServeMux (the humago adapter), for bench/run.
package main

import (
	"context"
	"net/http"
	"strconv"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/springport/greeter/bench/peers/internal/peer"
	"github.com/springport/greeter/bench/reference"
)

func main() {
	peer.Main(peer.HTTP(handler))
}

type greetingOutput struct {
	Body reference.Message
}

type hiOutput struct {
	ContentType string `header:"Content-Type"`
	Body        []byte
}

// helloInput bounds the id with huma's validation tags: huma parses any
// integer parameter as 64 bits and would wrap one out of int32's range.
type helloInput struct {
	ID int32 `path:"id" minimum:"-2147483648" maximum:"2147483647"`
}

type numberOutput struct {
	Body int32
}

type messageInput struct {
	Body struct {
		Text string `json:"text"`
	}
}

// handler is the measured endpoints as huma operations on a ServeMux, with
// huma's default configuration but for the schema links it adds to every
// JSON object (a "$schema" field and a Link header), which would make its
// answers differ from the reference's.
func handler(messages *peer.Messages, valA int32) http.Handler {
	// Huma answers a request that fails its validation (here a bad id or a
	// body without text) with 422; the reference, as the service, with 400.
	// NewError is huma's hook for its error responses.
	newError := huma.NewError
	huma.NewError = func(status int, msg string, errs ...error) huma.StatusError {
		if status == http.StatusUnprocessableEntity {
			status = http.StatusBadRequest
		}
		return newError(status, msg, errs...)
	}

	mux := http.NewServeMux()
	config := huma.DefaultConfig("greeter peer", "1.0.0")
	config.CreateHooks = nil
	api := humago.New(mux, config)
	huma.Get(api, "/api/hello", func(ctx context.Context, _ *struct{}) (*greetingOutput, error) {
		return &greetingOutput{Body: reference.Message{Text: reference.Greeting}}, nil
	})
	huma.Get(api, "/api/hi", func(ctx context.Context, _ *struct{}) (*hiOutput, error) {
		return &hiOutput{ContentType: "text/plain;charset=UTF-8", Body: []byte("Hi")}, nil
	})
	huma.Get(api, "/api/hello/{id}", func(ctx context.Context, in *helloInput) (*greetingOutput, error) {
		return &greetingOutput{Body: reference.Message{Text: reference.Greeting + " " + strconv.FormatInt(int64(in.ID), 10)}}, nil
	})
	huma.Get(api, "/api/number/val-a", func(ctx context.Context, _ *struct{}) (*numberOutput, error) {
		return &numberOutput{Body: valA}, nil
	})
	huma.Register(api, huma.Operation{
		OperationID:   "post-message",
		Method:        http.MethodPost,
		Path:          "/api/messages",
		DefaultStatus: http.StatusCreated,
		MaxBodyBytes:  reference.MaxBodyBytes,
	}, func(ctx context.Context, in *messageInput) (*struct{}, error) {
		messages.Append(in.Body.Text)
		return nil, nil
	})
	return mux
}
