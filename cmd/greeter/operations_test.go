package main

import (
	"strings"
	"testing"
)

// The end-to-end tests of the management endpoints, the metrics, tracing
// and the loggers run the framework's test service, in framework/boot.
// Here: arguments and answers greeter's tests share, and greeter's own
// part of its OpenAPI document.

var everything = []string{"--management.endpoints.web.exposure.include=*"}

// healthUp is /actuator/health by default: the status, and the groups
// there are, as Spring answers with its probes on.
const healthUp = `{"status":"UP","groups":["liveness","readiness"]}`

// TestOpenAPINamesTheXMLRootAsTheAnswersDo: the request body's XML root is
// documented as Message, the root the answers use, not as the Go type.
func TestOpenAPINamesTheXMLRootAsTheAnswersDo(t *testing.T) {
	t.Parallel()
	s := start(t, nil, nil)
	type document struct {
		Components struct {
			Schemas map[string]struct {
				XML struct{ Name string }
			}
		}
	}
	doc := decodeJSON[document](t, s.do(t, "GET", "/v3/api-docs", ""))
	for name, schema := range doc.Components.Schemas {
		if strings.Contains(name, "essage") && schema.XML.Name != "Message" {
			t.Errorf("schema %s names its XML root %q, want Message", name, schema.XML.Name)
		}
	}
}
