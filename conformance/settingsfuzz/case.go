// Package settingsfuzz fuzzes how settings resolve, Spring Boot against
// the framework (issue 36): Generate writes a small tree of settings
// files with an environment and a command line, both sides load it (the
// framework's config.Load in this process, Spring Boot's Environment in
// one long-running JVM, conformance/springenv), and Compare lists where
// they disagree: a resolved value, the active or default profiles, or
// whether start-up is refused. Minimize shrinks a case that differs to
// the least that still does.
//
// A case is written in Spring's spelling (spring.profiles.active,
// SPRING_APPLICATION_JSON) and translated for the framework, whose
// spring. keys are app. keys (app.profiles.active, APP_APPLICATION_JSON):
// each side reads its own spelling of the same case, in a directory of
// its own.
package settingsfuzz

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Case is one settings tree with its environment and command line.
type Case struct {
	Name  string // seed and number, or a regression test's name
	Files []File
	Env   []KV // environment variables, Spring's names
	Args  []KV // --key=value arguments, Spring's keys
	// Keys are the settings compared, beside the profiles.
	Keys []string
}

// KV is a key and its value. A List value is comma-separated and written
// as a list: key[0]=a, key[1]=b in .properties, [a, b] in YAML.
type KV struct {
	Key, Value string
	List       bool `json:",omitempty"`
}

// Kinds of file.
const (
	Properties = "properties"
	YAML       = "yaml"
	Tree       = "tree" // one file of a config tree: its value
)

// File is one file of the tree.
type File struct {
	Path string // relative, slash-separated
	Kind string
	Docs []Doc // Properties and YAML
	// Value is a config tree file's contents.
	Value string
	// Nested writes YAML keys as nested maps rather than dotted keys;
	// Colon writes properties as key: value; both only vary the text.
	Nested, Colon bool
}

// Doc is one document of a multi-document file.
type Doc struct {
	KVs []KV
}

// Sides.
const (
	Spring = "spring"
	Go     = "go"
)

// dirToken in a value is the absolute directory of the side's copy of
// the case.
const dirToken = "@DIR@"

// spell is key as side writes it: spring. is app. for the framework,
// in keys and in the placeholders of values.
func spell(side, s string) string {
	if side != Go {
		return s
	}
	if rest, ok := strings.CutPrefix(s, "spring."); ok {
		s = "app." + rest
	}
	return strings.ReplaceAll(s, "${spring.", "${app.")
}

// spellEnv is an environment variable's name as side reads it.
func spellEnv(side, name string) string {
	if side == Go {
		if rest, ok := strings.CutPrefix(name, "SPRING_"); ok {
			return "APP_" + rest
		}
	}
	return name
}

// spellJSON translates the keys of a JSON object of settings: a top-level
// "spring" member, or "spring."-prefixed keys, become "app".
func spellJSON(side, text string) string {
	if side != Go {
		return text
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return text // not an object: written as it is, refused alike
	}
	out := map[string]any{}
	for k, v := range m {
		if k == "spring" {
			k = "app"
		}
		out[spell(side, k)] = v
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// Request is how a side is asked to load a case: its directory, and the
// environment and arguments in its spelling.
type Request struct {
	Dir  string
	Env  []KV
	Args []string
	Keys []string
}

// Write writes the case's two spellings under dir, dir/spring and dir/go,
// and returns the two requests.
func (c *Case) Write(dir string) (spring, goSide Request, err error) {
	for _, side := range []string{Spring, Go} {
		d := filepath.Join(dir, side)
		if err := os.RemoveAll(d); err != nil {
			return spring, goSide, err
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return spring, goSide, err
		}
		for _, f := range c.Files {
			p := filepath.Join(d, filepath.FromSlash(f.Path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return spring, goSide, err
			}
			if err := os.WriteFile(p, []byte(strings.ReplaceAll(f.render(side), dirToken, d)), 0o644); err != nil {
				return spring, goSide, err
			}
		}
		r := Request{Dir: d, Keys: c.Keys}
		for _, e := range c.Env {
			v := spell(side, e.Value)
			if e.Key == "SPRING_APPLICATION_JSON" {
				v = spellJSON(side, e.Value)
			}
			r.Env = append(r.Env, KV{Key: spellEnv(side, e.Key), Value: strings.ReplaceAll(v, dirToken, d)})
		}
		for _, a := range c.Args {
			v := spell(side, a.Value)
			if a.Key == "spring.application.json" {
				v = spellJSON(side, a.Value)
			}
			r.Args = append(r.Args, "--"+spell(side, a.Key)+"="+strings.ReplaceAll(v, dirToken, d))
		}
		if side == Spring {
			spring = r
		} else {
			goSide = r
		}
	}
	return spring, goSide, nil
}

// render is the file's text in side's spelling.
func (f File) render(side string) string {
	var b strings.Builder
	switch f.Kind {
	case Tree:
		return f.Value
	case Properties:
		for i, d := range f.Docs {
			if i > 0 {
				b.WriteString("#---\n")
			}
			for _, kv := range d.KVs {
				sep := "="
				if f.Colon {
					sep = ": "
				}
				if kv.List {
					for i, v := range strings.Split(kv.Value, ",") {
						fmt.Fprintf(&b, "%s[%d]%s%s\n", spell(side, kv.Key), i, sep, strings.TrimSpace(spell(side, v)))
					}
					continue
				}
				fmt.Fprintf(&b, "%s%s%s\n", spell(side, kv.Key), sep, spell(side, kv.Value))
			}
		}
	case YAML:
		for i, d := range f.Docs {
			if i > 0 {
				b.WriteString("---\n")
			}
			if f.Nested {
				writeNested(&b, side, d.KVs)
				continue
			}
			for _, kv := range d.KVs {
				fmt.Fprintf(&b, "%s: %s\n", spell(side, kv.Key), yamlValue(side, kv))
			}
		}
	}
	return b.String()
}

// writeNested writes a document's keys as nested YAML maps. Keys of one
// document are never both a value and a map (the generator's keys are
// leaves), and a key set twice keeps YAML's last-one-wins.
func writeNested(b *strings.Builder, side string, kvs []KV) {
	type node struct {
		name     string
		value    *string
		children []*node
	}
	root := &node{}
	for _, kv := range kvs {
		n := root
		for _, part := range strings.Split(spell(side, kv.Key), ".") {
			i := slices.IndexFunc(n.children, func(c *node) bool { return c.name == part })
			if i < 0 {
				n.children = append(n.children, &node{name: part})
				i = len(n.children) - 1
			}
			n = n.children[i]
		}
		v := yamlValue(side, kv)
		n.value = &v
	}
	var walk func(n *node, depth int)
	walk = func(n *node, depth int) {
		for _, c := range n.children {
			indent := strings.Repeat("  ", depth)
			if c.value != nil && len(c.children) == 0 {
				fmt.Fprintf(b, "%s%s: %s\n", indent, c.name, *c.value)
				continue
			}
			fmt.Fprintf(b, "%s%s:\n", indent, c.name)
			walk(c, depth+1)
		}
	}
	walk(root, 0)
}

// yamlValue is a value as YAML writes it: a flow list, or a scalar.
func yamlValue(side string, kv KV) string {
	if !kv.List {
		return yamlScalar(spell(side, kv.Value))
	}
	var items []string
	for _, v := range strings.Split(kv.Value, ",") {
		items = append(items, yamlScalar(strings.TrimSpace(spell(side, v))))
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// yamlScalar quotes a value that YAML would not read as the plain string.
func yamlScalar(v string) string {
	if v == "" || strings.ContainsAny(v[:1], "!&*{}[]|>'\"%@`#,?:-") || strings.Contains(v, ": ") || strings.Contains(v, " #") ||
		v == "true" || v == "false" || v == "null" || v == "~" || strings.HasSuffix(v, " ") || strings.HasPrefix(v, " ") {
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	}
	return v
}

// String is the case as a reader needs it in a report: each file, the
// environment and the arguments, in Spring's spelling.
func (c *Case) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "case %s\n", c.Name)
	for _, f := range c.Files {
		fmt.Fprintf(&b, "  %s:\n", f.Path)
		for _, line := range strings.Split(strings.TrimSuffix(f.render(Spring), "\n"), "\n") {
			fmt.Fprintf(&b, "    | %s\n", line)
		}
	}
	for _, e := range c.Env {
		fmt.Fprintf(&b, "  env %s=%s\n", e.Key, e.Value)
	}
	for _, a := range c.Args {
		fmt.Fprintf(&b, "  arg --%s=%s\n", a.Key, a.Value)
	}
	fmt.Fprintf(&b, "  keys %s\n", strings.Join(c.Keys, " "))
	return b.String()
}
