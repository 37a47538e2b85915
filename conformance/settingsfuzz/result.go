package settingsfuzz

import (
	"fmt"
	"slices"
	"strings"

	"github.com/springport/greeter/framework/config"
)

// Result is what one side made of a case.
type Result struct {
	Refused bool   `json:"refused"`
	Error   string `json:"error,omitempty"` // the exception's class, or the error's text: shown, not compared
	// Active are the profiles activated (Spring's getActiveProfiles(),
	// empty when the defaults stand in), Default the default profiles.
	Active  []string `json:"active"`
	Default []string `json:"default"`
	// Values are the compared keys' values, resolved; nil for a key not
	// set, "!error" for one whose placeholders fail.
	Values map[string]*string `json:"values"`
}

// errorValue is a value whose resolution failed.
const errorValue = "!error"

// LoadGo loads a request with the framework's config.Load, in this
// process.
func LoadGo(r Request) Result {
	env := map[string]string{}
	for _, e := range r.Env {
		env[e.Key] = e.Value
	}
	e, err := config.Load(config.Options{Dir: r.Dir, Args: r.Args, LookupEnv: func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}})
	if err != nil {
		return Result{Refused: true, Error: err.Error()}
	}
	res := Result{Active: e.ExplicitProfiles(), Default: e.DefaultProfiles(), Values: map[string]*string{}}
	for _, k := range r.Keys {
		v, ok, err := e.Lookup(k)
		switch {
		case err != nil:
			s := errorValue
			res.Values[k] = &s
		case ok:
			s := v.Resolved
			res.Values[k] = &s
		default:
			res.Values[k] = nil
		}
	}
	return res
}

// Diff is one way the sides disagree.
type Diff struct {
	Aspect     string // "refused", "active", "default" or "value:KEY"
	Spring, Go string
}

func (d Diff) String() string {
	return fmt.Sprintf("%s: spring %s, go %s", d.Aspect, d.Spring, d.Go)
}

// Compare lists the differences between Spring's result and the
// framework's: refused or not, and when neither refused, the profiles and
// each key's value.
func Compare(spring, goSide Result) []Diff {
	if spring.Refused != goSide.Refused {
		return []Diff{{"refused", refusal(spring), refusal(goSide)}}
	}
	if spring.Refused {
		return nil
	}
	var out []Diff
	if !slices.Equal(spring.Active, goSide.Active) {
		out = append(out, Diff{"active", list(spring.Active), list(goSide.Active)})
	}
	if !slices.Equal(spring.Default, goSide.Default) {
		out = append(out, Diff{"default", list(spring.Default), list(goSide.Default)})
	}
	var keys []string
	for k := range spring.Values {
		keys = append(keys, k)
	}
	for k := range goSide.Values {
		if _, ok := spring.Values[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		s, g := show(spring.Values[k]), show(goSide.Values[k])
		if s != g {
			out = append(out, Diff{"value:" + k, s, g})
		}
	}
	return out
}

func refusal(r Result) string {
	if r.Refused {
		return "refused (" + firstLine(r.Error) + ")"
	}
	return "started"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

func list(l []string) string { return "[" + strings.Join(l, ",") + "]" }

func show(v *string) string {
	if v == nil {
		return "unset"
	}
	return fmt.Sprintf("%q", *v)
}
