package openapi

import (
	"maps"

	"github.com/springport/greeter/framework/dispatch"
)

// inputBounds returns the schema sc of the input in with its maximum,
// default and allowed values (a list's, its items'), as the dispatcher
// applies them: a Pageable's size and sort, a Param's Default.
func inputBounds(sc object, in dispatch.InputInfo) object {
	if in.Maximum == nil && in.Default == nil && in.Enum == nil {
		return sc
	}
	sc = maps.Clone(sc)
	if in.Maximum != nil {
		sc["maximum"] = *in.Maximum
	}
	if in.Default != nil {
		sc["default"] = in.Default
	}
	if in.Enum != nil {
		enum := make([]any, len(in.Enum))
		for i, v := range in.Enum {
			enum[i] = v
		}
		if items, ok := sc["items"].(object); ok {
			items = maps.Clone(items)
			items["enum"] = enum
			sc["items"] = items
		} else {
			sc["enum"] = enum
		}
	}
	return sc
}
