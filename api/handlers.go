package api

import (
	"strconv"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/dispatch"
)

func handleHello(greeting string) func(*dispatch.Request) (message.Message, error) {
	return func(*dispatch.Request) (message.Message, error) {
		return message.Message{Text: greeting}, nil
	}
}

func handleHi() func(*dispatch.Request) (string, error) {
	return func(*dispatch.Request) (string, error) { return "Hi", nil }
}

func handleNothing() func(*dispatch.Request) error {
	return func(*dispatch.Request) error { return nil }
}

func handleHelloID(greeting string) func(*dispatch.Request) (message.Message, error) {
	return func(r *dispatch.Request) (message.Message, error) {
		return message.Message{Text: greeting + " " + strconv.FormatInt(int64(helloID.Get(r)), 10)}, nil
	}
}

func handleCreateMessage(messages message.Store) func(*dispatch.Request, messageBody) error {
	return func(r *dispatch.Request, body messageBody) error {
		return messages.Append(r.Context(), body.message())
	}
}

func handleGetMessage(messages message.Store) func(*dispatch.Request) (message.Message, error) {
	return func(r *dispatch.Request) (message.Message, error) {
		return messages.Get(r.Context(), int64(messageIndex.Get(r)))
	}
}

func handleReplaceMessage(messages message.Store) func(*dispatch.Request, messageBody) error {
	return func(r *dispatch.Request, body messageBody) error {
		return messages.Replace(r.Context(), int64(messageIndex.Get(r)), body.message())
	}
}

func handleRemoveMessage(messages message.Store) func(*dispatch.Request) error {
	return func(r *dispatch.Request) error {
		return messages.Remove(r.Context(), int64(messageIndex.Get(r)))
	}
}

// handleSearch answers an empty success, as the original does: its inputs
// are converted and checked by the dispatcher, and the spec shows no more.
func handleSearch() func(*dispatch.Request) error {
	return func(*dispatch.Request) error { return nil }
}

func handleNumber(source NumberSource) func(*dispatch.Request) (int32, error) {
	return func(r *dispatch.Request) (int32, error) {
		n, err := source(r.Context())
		if err != nil {
			return 0, err
		}
		return n.Value(), nil
	}
}
