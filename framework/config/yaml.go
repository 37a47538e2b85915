package config

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// maxFlattenedEntries bounds the settings one YAML file may flatten to.
// Aliases let a few lines stand for a huge tree (the "billion laughs"
// file); settings files hold hundreds of entries, not millions.
const maxFlattenedEntries = 100_000

// ParseYAML reads YAML text as Spring Boot's YAML loader does and returns
// its documents ("---" separates them), each as entries in file order:
//
//   - nested maps flatten to dotted keys: "server:\n  port: 80" is
//     server.port=80;
//   - lists flatten to indexed keys: "hosts: [a, b]" is hosts[0]=a and
//     hosts[1]=b, and an empty list is hosts="";
//   - a scalar keeps its text as written ("0x1F" stays "0x1F", "yes" stays
//     "yes"), except that a boolean is written "true" or "false" whatever
//     its case, and null ("~", "null" or nothing) is the empty string.
//
// Spring's loader reads YAML 1.1, where "yes", "on" and "0x1F" become true,
// true and 31; here they stay text. Aliases (*name) and merge keys (<<) are
// followed. Empty documents are dropped, as in Spring. Each entry's line
// and column are those of its value.
func ParseYAML(text string) ([][]Property, error) {
	dec := yaml.NewDecoder(strings.NewReader(text))
	var docs [][]Property
	for {
		var root yaml.Node
		err := dec.Decode(&root)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		f := yamlFlattener{}
		if err := f.document(&root); err != nil {
			return nil, err
		}
		if len(f.props) > 0 {
			docs = append(docs, f.props)
		}
	}
}

// yamlFlattener collects the entries of one YAML document.
type yamlFlattener struct {
	props []Property
}

func (f *yamlFlattener) document(root *yaml.Node) error {
	if len(root.Content) == 0 {
		return nil
	}
	n := resolveAlias(root.Content[0])
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: a settings document must be a map of keys to values", n.Line)
	}
	return f.node("", n)
}

// node adds the entries of n under the key prefix.
func (f *yamlFlattener) node(prefix string, n *yaml.Node) error {
	if len(f.props) > maxFlattenedEntries {
		return fmt.Errorf("line %d: more than %d settings; is an alias repeated?", n.Line, maxFlattenedEntries)
	}
	n = resolveAlias(n)
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := resolveAlias(n.Content[i]), n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: a key must be text, not a list or map", k.Line)
			}
			if k.Tag == "!!merge" {
				// "<<: *defaults" copies the entries of another map here.
				if err := f.node(prefix, v); err != nil {
					return err
				}
				continue
			}
			if err := f.node(joinKey(prefix, k.Value), v); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			f.add(prefix, "", n)
		}
		for i, item := range n.Content {
			if err := f.node(indexKey(prefix, i), item); err != nil {
				return err
			}
		}
	default:
		f.add(prefix, scalarText(n), n)
	}
	return nil
}

func (f *yamlFlattener) add(key, value string, n *yaml.Node) {
	f.props = append(f.props, Property{Key: key, Value: value, Line: n.Line, Column: n.Column})
}

// resolveAlias returns the node an alias stands for, or n itself.
func resolveAlias(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// scalarText is a scalar's value as a setting holds it (see ParseYAML).
func scalarText(n *yaml.Node) string {
	switch n.Tag {
	case "!!null":
		return ""
	case "!!bool":
		return strings.ToLower(n.Value)
	}
	return n.Value
}

// joinKey is the key of child under prefix, as Spring flattens nested
// maps: dotted, except that an index ("[0]") follows directly.
func joinKey(prefix, child string) string {
	if prefix == "" || strings.HasPrefix(child, "[") {
		return prefix + child
	}
	return prefix + "." + child
}

// indexKey is the key of the i-th element of the list under prefix.
func indexKey(prefix string, i int) string {
	return prefix + "[" + strconv.Itoa(i) + "]"
}
