//go:build generatedclient

// Command main calls a running greeter through the client that
// oapi-codegen generates from greeter's /v3/api-docs (TestGeneratedClients
// in conformance/clients_test.go generates it beside this file, in package
// main, and builds both with -tags generatedclient): the greeting in JSON
// and in both XML types, then a message created, listed, fetched back and
// searched for. It exits 1 with what was wrong.
//
// Usage: main http://127.0.0.1:PORT
package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: main BASE_URL")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		os.Exit(1)
	}
	fmt.Println("ok")
}

func run(base string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := NewClientWithResponses(base)
	if err != nil {
		return err
	}

	// hello, as JSON and as each XML type: the document offers both
	// application/xml and text/xml, and the client decodes either into
	// XML200. Its Message has json tags only (oapi-codegen writes no xml
	// tags), so encoding/xml leaves Text empty for <text>: the body is
	// checked instead.
	hello, err := c.GetApiHelloWithResponse(ctx)
	if err != nil {
		return fmt.Errorf("hello: %w", err)
	}
	if hello.JSON200 == nil || hello.JSON200.Text != "Hello World!" {
		return fmt.Errorf("hello: %d %q, want 200 with text %q", hello.StatusCode(), hello.Body, "Hello World!")
	}
	for _, accept := range []string{"application/xml", "text/xml"} {
		hello, err := c.GetApiHelloWithResponse(ctx, acceptHeader(accept))
		if err != nil {
			return fmt.Errorf("hello as %s: %w", accept, err)
		}
		if hello.XML200 == nil || !bytes.Contains(hello.Body, []byte("<text>Hello World!</text>")) {
			return fmt.Errorf("hello as %s: %d %q, want 200 with <text>Hello World!</text>", accept, hello.StatusCode(), hello.Body)
		}
	}

	// create
	text := fmt.Sprintf("from the Go client %d", time.Now().UnixNano())
	created, err := c.PostApiMessagesWithResponse(ctx, PostApiMessagesJSONRequestBody{Text: text})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	if created.StatusCode() != http.StatusCreated {
		return fmt.Errorf("create: %d %q, want 201", created.StatusCode(), created.Body)
	}

	// list: the message is in it
	list, err := c.GetApiMessagesWithResponse(ctx, &GetApiMessagesParams{})
	if err != nil {
		return fmt.Errorf("list: %w", err)
	}
	if list.JSON200 == nil {
		return fmt.Errorf("list: %d %q, want 200 with a JSON list", list.StatusCode(), list.Body)
	}
	index := -1
	for i, m := range *list.JSON200 {
		if m.Text == text {
			index = i
		}
	}
	if index < 0 {
		return fmt.Errorf("list: %q is not in %q", text, list.Body)
	}

	// get: the message at its index
	got, err := c.GetApiMessagesByIndexWithResponse(ctx, int32(index))
	if err != nil {
		return fmt.Errorf("get: %w", err)
	}
	if got.JSON200 == nil || got.JSON200.Text != text {
		return fmt.Errorf("get %d: %d %q, want 200 with text %q", index, got.StatusCode(), got.Body, text)
	}

	// search: greeter checks its parameters and answers an empty 200
	id := openapi_types.UUID{0x6e, 0x06, 0xb6, 0x99}
	search, err := c.GetApiMessagesSearchWithResponse(ctx, &GetApiMessagesSearchParams{Param1: int32(index), Param2: &id})
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	if search.StatusCode() != http.StatusOK || len(search.Body) != 0 {
		return fmt.Errorf("search: %d %q, want 200 with no body", search.StatusCode(), search.Body)
	}
	return nil
}

// acceptHeader asks for an answer in the media type.
func acceptHeader(mediaType string) RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set("Accept", mediaType)
		return nil
	}
}
