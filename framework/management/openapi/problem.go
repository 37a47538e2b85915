package openapi

import (
	"net/http"
	"strconv"
	"strings"
	"unicode"
)

// problemType is the media type of every error response.
const problemType = "application/problem+json"

// problemResponse returns the name of the shared response for an error
// status, defining it the first time.
func (b *builder) problemResponse(status int) string {
	name := strings.ReplaceAll(statusText(status), " ", "")
	name = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, name)
	if name == "" || http.StatusText(status) == "" {
		name = "Status" + strconv.Itoa(status)
	}
	if _, ok := b.responses[name]; ok {
		return name
	}
	schema := object{"$ref": "#/components/schemas/Problem", "properties": object{"status": object{"const": status}}}
	resp := object{
		"description": statusText(status),
		"content":     object{problemType: object{"schema": schema}},
	}
	switch status {
	case http.StatusMethodNotAllowed:
		resp["headers"] = object{"Allow": object{
			"description": "The methods the path allows.",
			"required":    true,
			"schema":      object{"type": "string"},
		}}
	case http.StatusUnsupportedMediaType:
		// A 415 refuses the body's Content-Type, its Content-Encoding or
		// the charset an XML body declares; Accept comes with each.
		resp["headers"] = object{
			"Accept": object{
				"description": "The body types the operation reads.",
				"required":    true,
				"schema":      object{"type": "string"},
			},
			"Accept-Encoding": object{
				"description": "identity, when the body's Content-Encoding is refused: send it unencoded.",
				"schema":      object{"type": "string"},
			},
		}
	}
	b.responses[name] = resp
	return name
}

func problemSchema() object {
	return object{
		"type":        "object",
		"description": "An RFC 9457 problem document.",
		"properties": object{
			"type":      object{"type": "string", "format": "uri-reference", "description": "about:blank unless a more specific type exists."},
			"title":     object{"type": "string", "description": "The status's reason phrase."},
			"status":    object{"type": "integer", "format": "int32", "minimum": 400, "maximum": 599},
			"detail":    object{"type": "string", "description": "What went wrong, for a human reader."},
			"instance":  object{"type": "string", "format": "uri-reference", "description": "The request's path."},
			"requestId": object{"type": "string", "description": "The request's ID, as in the server's log."},
			"traceId":   object{"type": "string", "pattern": "^[0-9a-f]{32}$", "description": "The W3C trace ID of the request's trace, when it is in one."},
			"errors": object{
				"type":        "array",
				"description": "What is wrong with the request's content, each violation once: a body member's, named by a JSON Pointer, or a parameter's, by its name.",
				"items": object{
					"type": "object",
					"properties": object{
						"detail":    object{"type": "string", "description": "What is wrong, in Hibernate Validator's words."},
						"pointer":   object{"type": "string", "format": "uri-reference", "description": "The body member at fault, as a JSON Pointer in URI fragment form (#/items/0/count)."},
						"parameter": object{"type": "string", "description": "The path variable or query parameter at fault."},
					},
					"required": []any{"detail"},
				},
			},
		},
		"required": []any{"type", "title", "status", "instance"},
	}
}

func statusText(status int) string {
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "Status " + strconv.Itoa(status)
}
