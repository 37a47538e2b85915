package openapi

import (
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// typeName is the name t's component starts from: its Go name, or, for
// an instance of a generic type, the generic type's name followed by the
// names of its type arguments without their packages, as springdoc names
// PagedModel<Message> PagedModelMessage: dispatch.Page[api.Message] is
// PageMessage, Pair[[]string, int] PairListStringInt. reflect's own name
// for it (Page[github.com/…/api.Message]) is no name a generator can use.
func typeName(t reflect.Type) string {
	name := t.Name()
	open := strings.IndexByte(name, '[')
	if open <= 0 || !strings.HasSuffix(name, "]") {
		return name
	}
	var b strings.Builder
	b.WriteString(name[:open])
	args := name[open+1 : len(name)-1]
	for args != "" {
		if rest, ok := strings.CutPrefix(args, "[]"); ok {
			b.WriteString("List")
			args = rest
			continue
		}
		end := strings.IndexAny(args, "[]*, ")
		switch {
		case end == 0:
			args = args[1:]
			continue
		case end < 0:
			end = len(args)
		}
		b.WriteString(exportedName(args[:end]))
		args = args[end:]
	}
	return b.String()
}

// exportedName is a type argument's name without its package path,
// capitalised: github.com/x/api.Message is Message, string String.
func exportedName(qualified string) string {
	s := qualified[strings.LastIndexByte(qualified, '/')+1:]
	s = s[strings.LastIndexByte(s, '.')+1:]
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
