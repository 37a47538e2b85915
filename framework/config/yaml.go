package config

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// maxAliasedNodes bounds the nodes that the aliases of one YAML document
// may stand for, counted each time an alias is followed. Aliases let a few
// lines stand for a huge tree (the "billion laughs" file), so without a
// bound a small file could take any memory and time. Entries that are
// written out, not reached through an alias, need no such bound: there
// are never more of them than the file has nodes, which the size of the
// file bounds (a 4 MB list of 233,000 entries loads, as in Spring).
const maxAliasedNodes = 100_000

// ParseYAML reads YAML text as Spring Boot's YAML loader does and returns
// its documents ("---" separates them), each as entries in file order:
//
//   - nested maps flatten to dotted keys: "server:\n  port: 80" is
//     server.port=80;
//   - lists flatten to indexed keys: "hosts: [a, b]" is hosts[0]=a and
//     hosts[1]=b;
//   - an empty list or map is the empty string: "hosts: []" and
//     "hosts: {}" are both hosts="" (Spring Boot 4.1 and later; earlier
//     versions drop an empty map);
//   - a scalar keeps its text as written ("0x1F" stays "0x1F", "yes" stays
//     "yes"), except that a boolean is written "true" or "false" whatever
//     its case, and null ("~", "null" or nothing) is the empty string;
//   - a document that is not a map stands under the key "document", as in
//     Spring: a document that is a list is document[0], document[1], ...
//
// Spring's loader reads YAML 1.1, where "yes", "on" and "0x1F" become true,
// true and 31; here they stay text. Aliases (*name) and merge keys (<<) are
// followed; an alias inside the very map or list it stands for is an
// error, as is more than maxAliasedNodes nodes reached through aliases. A
// key that is a list or a map (SnakeYAML accepts one, even an alias to the
// map that holds it) gives Spring a key no setting can name, so its entry
// is skipped. A tag that names a type (!!java.net.URL, !foo) is an error,
// as it is in Spring, which refuses to build arbitrary Java objects; the
// standard tags (!!str, !!int, !!map, ...) are accepted. A key written
// twice in one map is an error, as in Spring. Empty documents
// are dropped, as in Spring. Each entry's line and column are those of
// its value.
func ParseYAML(text string) ([][]Property, error) {
	if err := checkYAMLDensity(text); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(strings.NewReader(text))
	var docs [][]Property
	budget := &settingsBudget{} // for the whole file (see limits.go)
	for {
		var root yaml.Node
		err := dec.Decode(&root)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		if err := checkTags(&root); err != nil {
			return nil, err
		}
		f := yamlFlattener{expanding: map[*yaml.Node]bool{}, budget: budget}
		if err := f.document(&root); err != nil {
			return nil, err
		}
		if f.err != nil {
			return nil, f.err
		}
		if len(f.props) > 0 {
			docs = append(docs, f.props)
		}
	}
}

// checkYAMLDensity refuses a text that would make more nodes than a file
// may hold settings, before it is parsed. The YAML library builds a
// document's whole tree before any of it can be counted, at a few hundred
// bytes a node (a one-line list of 2,000,000 numbers, 4 MiB, took 0.5 GB),
// so counting afterwards bounds the time but not the memory. Outside of
// aliases, which are bounded as they are followed, every node but a
// bounded few per line is opened by a newline, a comma, '[' or '{'; those
// are counted here, at the cost of one pass over the text.
func checkYAMLDensity(text string) error {
	n := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n', ',', '[', '{':
			n++
		}
	}
	if n > maxFlattenedEntries {
		return fmt.Errorf("more than %d lines, commas, '[' and '{' together: a YAML file this dense could hold more than %d settings, and is refused before it is parsed", maxFlattenedEntries, maxFlattenedEntries)
	}
	return nil
}

// standardTags are the YAML tags a setting may carry: those of text,
// numbers, booleans, null, lists and maps, plus merge keys, timestamps
// (which stay text, as Spring's loader keeps them) and "!", which makes a
// scalar text. SnakeYAML also builds sets, ordered maps and byte arrays
// (!!set, !!omap, !!binary), which have no text form as a setting.
var standardTags = map[string]bool{
	"!": true, "!!str": true, "!!int": true, "!!float": true, "!!bool": true, "!!null": true,
	"!!map": true, "!!seq": true, "!!merge": true, "!!timestamp": true,
}

// checkTags refuses a node of the tree under n, keys included, whose tag is
// not a standard one.
func checkTags(n *yaml.Node) error {
	if n.Tag != "" && !standardTags[n.Tag] {
		return fmt.Errorf("line %d column %d: the YAML tag %s is not supported: a setting is text, a list or a map", n.Line, n.Column, n.Tag)
	}
	for _, c := range n.Content {
		if err := checkTags(c); err != nil {
			return err
		}
	}
	return nil
}

// yamlFlattener collects the entries of one YAML document.
type yamlFlattener struct {
	props []Property
	// aliased counts the aliases followed and the nodes visited through one.
	aliased int
	// expanding holds the nodes that aliases being followed stand for.
	expanding map[*yaml.Node]bool
	// budget bounds the entries and key bytes of the file, depth the
	// nesting of maps and lists (see limits.go); err is the first limit
	// exceeded, which ends the flattening.
	budget *settingsBudget
	depth  int
	err    error
}

func (f *yamlFlattener) document(root *yaml.Node) error {
	if len(root.Content) == 0 {
		return nil
	}
	n := root.Content[0]
	switch {
	case n.Kind == yaml.MappingNode:
		return f.node("", n, false)
	case n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || n.Value == ""),
		n.Kind == yaml.SequenceNode && len(n.Content) == 0:
		// Spring drops a document that is null or empty.
		return nil
	}
	// "A document can be a text literal", says Spring's YamlProcessor,
	// which puts it under this key.
	return f.node("document", n, false)
}

// node adds the entries of n under the key prefix; viaAlias says that n
// was reached through an alias.
func (f *yamlFlattener) node(prefix string, n *yaml.Node, viaAlias bool) error {
	if f.err != nil {
		return f.err
	}
	if f.depth++; f.depth > maxNesting {
		return fmt.Errorf("line %d: %w", n.Line, nestingError())
	}
	defer func() { f.depth-- }()
	if n.Kind == yaml.AliasNode {
		return f.alias(n, func(target *yaml.Node) error { return f.node(prefix, target, true) })
	}
	if viaAlias {
		if err := f.countAliased(n); err != nil {
			return err
		}
	}
	switch n.Kind {
	case yaml.MappingNode:
		before := len(f.props)
		if err := f.mapping(prefix, n, viaAlias); err != nil {
			return err
		}
		if len(f.props) == before && prefix != "" {
			f.add(prefix, "", n)
		}
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			f.add(prefix, "", n)
		}
		for i, item := range n.Content {
			if err := f.node(indexKey(prefix, i), item, viaAlias); err != nil {
				return err
			}
		}
	default:
		f.add(prefix, scalarText(n), n)
	}
	return nil
}

// mapping adds the entries of the map n under prefix. As in SnakeYAML,
// the maps that merge keys ("<<: *defaults", "<<: [*a, *b]") name come
// first, the first named winning, and the map's own keys win over them
// wherever they stand. A key written twice in one map is an error, as in
// Spring, whose loader does not allow duplicate keys.
func (f *yamlFlattener) mapping(prefix string, n *yaml.Node, viaAlias bool) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			if err := f.merge(prefix, n.Content[i+1], viaAlias); err != nil {
				return err
			}
		}
	}
	seen := map[[2]string]int{} // tag and text of each key written in n, and its line
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
			// A key that is a list, a map or an alias to one: see ParseYAML.
			continue
		}
		id := [2]string{k.ShortTag(), k.Value}
		if line, ok := seen[id]; ok {
			return fmt.Errorf("line %d: the key %q is already in this map (line %d): Spring's YAML loader refuses a duplicate key (SnakeYAML's DuplicateKeyException), which would otherwise silently replace the first", k.Line, joinKey(prefix, k.Value), line)
		}
		seen[id] = k.Line
		if err := f.node(joinKey(prefix, k.Value), v, viaAlias); err != nil {
			return err
		}
	}
	return nil
}

// merge adds under prefix the entries of what a merge key names: a map,
// or a list of maps of which the first wins.
func (f *yamlFlattener) merge(prefix string, v *yaml.Node, viaAlias bool) error {
	if v.Kind == yaml.AliasNode {
		return f.alias(v, func(target *yaml.Node) error { return f.merge(prefix, target, true) })
	}
	switch v.Kind {
	case yaml.MappingNode:
		return f.mapping(prefix, v, viaAlias)
	case yaml.SequenceNode:
		for i := len(v.Content) - 1; i >= 0; i-- {
			item := v.Content[i]
			if item.Kind != yaml.MappingNode && (item.Kind != yaml.AliasNode || item.Alias == nil || item.Alias.Kind != yaml.MappingNode) {
				return fmt.Errorf("line %d: a merge key (<<) takes a map or a list of maps", item.Line)
			}
			if err := f.merge(prefix, item, viaAlias); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("line %d: a merge key (<<) takes a map or a list of maps", v.Line)
}

// alias calls visit with the node the alias n stands for, refusing an
// alias met again inside what it stands for, which would never end.
func (f *yamlFlattener) alias(n *yaml.Node, visit func(*yaml.Node) error) error {
	target := n.Alias
	if target == nil {
		return fmt.Errorf("line %d: unknown alias *%s", n.Line, n.Value)
	}
	if f.expanding[target] {
		return fmt.Errorf("line %d column %d: the alias *%s stands for a map or list that holds it", n.Line, n.Column, n.Value)
	}
	if err := f.countAliased(n); err != nil {
		return err
	}
	f.expanding[target] = true
	defer delete(f.expanding, target)
	return visit(target)
}

// countAliased counts n, reached through an alias, against maxAliasedNodes.
func (f *yamlFlattener) countAliased(n *yaml.Node) error {
	f.aliased++
	if f.aliased > maxAliasedNodes {
		return fmt.Errorf("line %d: aliases stand for more than %d values; is an alias repeated?", n.Line, maxAliasedNodes)
	}
	return nil
}

func (f *yamlFlattener) add(key, value string, n *yaml.Node) {
	if err := f.budget.add(key); err != nil && f.err == nil {
		f.err = fmt.Errorf("line %d: %w", n.Line, err)
	}
	f.props = append(f.props, Property{Key: key, Value: value, Line: n.Line, Column: n.Column})
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
