package reference

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Args reads the --key=value arguments of a benchmark command, as the
// service takes them. defaults holds every key the command understands,
// with the value it has when the argument is absent; any other argument
// is an error that names the keys there are.
func Args(args []string, defaults map[string]string) (map[string]string, error) {
	values := maps.Clone(defaults)
	for _, a := range args {
		kv, dashed := strings.CutPrefix(a, "--")
		key, value, hasValue := strings.Cut(kv, "=")
		if _, known := defaults[key]; !dashed || !hasValue || !known {
			return nil, fmt.Errorf("unknown argument %q; understood: --%s=…", a,
				strings.Join(slices.Sorted(maps.Keys(defaults)), "=…, --"))
		}
		values[key] = value
	}
	return values, nil
}
