package openapi

import (
	"bytes"

	"go.yaml.in/yaml/v4"
)

// encodeYAML writes v as block-style YAML with two-space indentation, as
// /v3/api-docs.yaml serves the document. The document holds only maps with
// string keys, slices, strings, numbers, booleans and nil, which YAML
// represents as JSON does, so it reads back as the JSON document's tree;
// the encoder sorts mapping keys, so the same document gives the same bytes.
func encodeYAML(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
