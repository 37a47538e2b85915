package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Settings may come as one JSON object, in the environment variable
// APP_APPLICATION_JSON or the argument --app.application.json= (Spring's
// SPRING_APPLICATION_JSON and spring.application.json):
//
//	APP_APPLICATION_JSON='{"app":{"greeting":"Hi"},"hosts":["a","b"]}'
//
// sets app.greeting=Hi, hosts[0]=a and hosts[1]=b. Nested objects flatten
// to dotted keys and arrays to indexed ones, as YAML does (see ParseYAML);
// numbers keep their text, null is the empty string. The text is parsed
// as written: a placeholder in a value (${db.host:localhost}) resolves
// when the setting is read, as any other. The object ranks
// above the environment and below the command line, as in Spring; when
// both the argument and the variable are given, the argument's object is
// the one read.

const keyApplicationJSON = "app.application.json"

// applicationJSONSourceName is Spring's name for the source.
const applicationJSONSourceName = "app.application.json"

// applicationJSON reads the JSON settings named in env; nil when none are
// given. Invalid JSON is a *SettingError that does not show the value,
// which may hold secrets.
func applicationJSON(env *Environment) (*source, error) {
	// The text as written, never resolved: Spring parses the variable's
	// raw value, and the placeholders in the object's values resolve when
	// each is read, against every source, files included.
	src, ent, ok, err := env.raw(keyApplicationJSON)
	if err != nil || !ok {
		return nil, err
	}
	key := ent.Key
	if src.lookupEnv != nil {
		key = keyApplicationJSON // the variable's name is in the origin
	}
	v := Value{Key: key, Raw: ent.Value, Resolved: ent.Value, Source: src.name, Origin: ent.Origin}
	v.secrets = append(v.secrets, v.Raw)
	props, err := flattenJSON(v.Raw)
	if err != nil {
		return nil, &SettingError{Value: v, Reason: err.Error()}
	}
	out := newSource(applicationJSONSourceName)
	for _, p := range props {
		out.set(p.Key, p.Value, OriginWithoutValue(v.Origin))
	}
	return out, nil
}

// flattenJSON returns the settings of a JSON object, in document order.
func flattenJSON(text string) ([]Property, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	f := jsonFlattener{dec: dec}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, f.fail(err, "want a JSON object, {...}")
	}
	if err := f.object(""); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, f.fail(err, "text after the JSON object")
	}
	return f.props, nil
}

// jsonFlattener collects the entries of a JSON object as it is decoded.
type jsonFlattener struct {
	dec    *json.Decoder
	props  []Property
	budget settingsBudget // see limits.go
	depth  int            // of the object or array being read
}

// enter counts one more level of nesting below key, and fails past the
// limits: without them, 130 KB of nested arrays made keys of gigabytes.
func (f *jsonFlattener) enter(key string) error {
	if f.depth++; f.depth > maxNesting {
		return fmt.Errorf("at offset %d: %w", f.dec.InputOffset(), nestingError())
	}
	return f.budget.add(key)
}

// add adds the setting key=value.
func (f *jsonFlattener) add(key, value string) error {
	if err := f.budget.add(key); err != nil {
		return fmt.Errorf("at offset %d: %w", f.dec.InputOffset(), err)
	}
	f.props = append(f.props, Property{Key: key, Value: value})
	return nil
}

// fail describes a decoding failure by its position, never quoting the
// text, which may hold a secret.
func (f *jsonFlattener) fail(err error, what string) error {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return fmt.Errorf("not valid JSON at offset %d", syntax.Offset)
	}
	return fmt.Errorf("not valid JSON at offset %d: %s", f.dec.InputOffset(), what)
}

// object reads the members of an object whose '{' was read, up to its '}'.
func (f *jsonFlattener) object(prefix string) error {
	for f.dec.More() {
		t, err := f.dec.Token()
		if err != nil {
			return f.fail(err, "want a member name")
		}
		if err := f.value(joinKey(prefix, t.(string))); err != nil {
			return err
		}
	}
	_, err := f.dec.Token()
	if err != nil {
		return f.fail(err, "want '}'")
	}
	return nil
}

// value reads one value and adds its entries under key.
func (f *jsonFlattener) value(key string) error {
	t, err := f.dec.Token()
	if err != nil {
		return f.fail(err, "want a value")
	}
	switch t := t.(type) {
	case json.Delim:
		if err := f.enter(key); err != nil {
			return err
		}
		defer func() { f.depth-- }()
		if t == '{' {
			return f.object(key)
		}
		i := 0
		for ; f.dec.More(); i++ {
			if err := f.value(indexKey(key, i)); err != nil {
				return err
			}
		}
		if i == 0 {
			if err := f.add(key, ""); err != nil {
				return err
			}
		}
		if _, err := f.dec.Token(); err != nil {
			return f.fail(err, "want ']'")
		}
	case nil:
		return f.add(key, "")
	case string:
		return f.add(key, t)
	default: // json.Number or bool
		return f.add(key, fmt.Sprint(t))
	}
	return nil
}
