package metrics

import (
	"reflect"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/springport/greeter/framework/dispatch"
)

// errorName is the exception tag of a server error (5xx), as Spring tags
// one with its exception's class's simple name: what kind of failure it
// was, never a Go runtime type (errorString, wrapError) and never the
// error's text, so that the tag's values stay few. In order:
//
//  1. the Kind of a *dispatch.Error in the error's chain, which the
//     handler or the service's Classify set (dispatch.Error.Kind);
//  2. the first named error type of the service's in the chain, walked
//     as errors.As walks it (Unwrap, and each of a join's errors in
//     turn): the name of its Go type, without package or pointer
//     (IndexError for a *message.IndexError), passing over the standard
//     library's types and the dispatch package's (fmt.Errorf's wrappers,
//     *dispatch.Error, *dispatch.PanicError); a type named only Error is
//     qualified by its package (outage.Error), as Error alone names no
//     kind;
//  3. otherwise unnamedError.
//
// An error answered with a 4xx is tagged none, as Spring Boot 3 and 4 tag
// the client errors that Spring MVC's exception handling answers (a
// path variable that does not convert, a 406, a 415, an
// @ExceptionHandler's answer): their observations record only an
// exception that reaches the servlet container, which the spec's service
// does with its 500s. A 5xx that the service's Classify answered is named
// all the same: Spring's documentation has an @ExceptionHandler that
// answers a server error record it on the observation, and an operator
// counting server errors by exception needs the name.
func errorName(err error) string {
	var kind string
	walkErrors(err, func(e error) bool {
		if d, ok := e.(*dispatch.Error); ok && isName(d.Kind) {
			kind = d.Kind
		}
		return kind != ""
	})
	if kind != "" {
		return kind
	}
	walkErrors(err, func(e error) bool {
		kind = serviceTypeName(reflect.TypeOf(e))
		return kind != ""
	})
	if kind != "" {
		return kind
	}
	return unnamedError
}

// unnamedError is the exception tag of a server error that nothing names:
// errors.New's, fmt.Errorf's, a panic's, a *dispatch.Error without a Kind
// or a cause. It is the class a Spring service throws for a failure with
// no class of its own (throw new RuntimeException(message)), and the one
// every unchecked exception is, so that a dashboard or an alert written
// for a Spring service, counting exception!="none", counts these too.
const unnamedError = "RuntimeException"

// walkErrors calls visit on err and the errors it wraps, depth first, as
// errors.As visits them, until visit returns true.
func walkErrors(err error, visit func(error) bool) bool {
	for err != nil {
		if visit(err) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if walkErrors(e, visit) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

var dispatchPackage = reflect.TypeFor[dispatch.Error]().PkgPath()

// serviceTypeName is the name of t, an error's type, when it is a named
// type of neither the standard library nor the dispatch package; "" for
// any other.
func serviceTypeName(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Name() == "" {
		return ""
	}
	pkg := t.PkgPath()
	if pkg == "" || pkg == dispatchPackage || standardLibrary(pkg) {
		return ""
	}
	name, _, _ := strings.Cut(t.Name(), "[") // a generic type's name, without its arguments
	if name == "Error" {
		name = pkg[strings.LastIndexByte(pkg, '/')+1:] + "." + name
	}
	return name
}

// isName reports whether a Kind is a name (letters, digits, _ . $ -,
// at most 100 bytes) rather than a sentence: a Kind made of an error's
// text would make a series per message, so it is passed over.
func isName(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.', r == '$', r == '-':
		default:
			return false
		}
	}
	return true
}

// standardLibrary reports whether pkg is a package of the standard
// library: its path's first element has no dot, and it is neither the
// program's main package nor in a module the program is built from (a
// module path may lack a dot too: go mod init links).
func standardLibrary(pkg string) bool {
	first, _, _ := strings.Cut(pkg, "/")
	if pkg == "main" || strings.Contains(first, ".") {
		return false
	}
	for _, m := range modulePaths() {
		if m != "" && (pkg == m || strings.HasPrefix(pkg, m+"/")) {
			return false
		}
	}
	return true
}

// modulePaths are the paths of the modules the program is built from.
var modulePaths = sync.OnceValue(func() []string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	paths := []string{info.Main.Path}
	for _, d := range info.Deps {
		paths = append(paths, d.Path)
	}
	return paths
})
