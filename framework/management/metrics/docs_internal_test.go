package metrics

import (
	"slices"
	"testing"

	"github.com/springport/greeter/framework/testing/doctest"
)

// operationsDoc lists, in its section "Metrics", the Prometheus families
// whose /actuator/metrics name is Micrometer's own rather than the one
// made from the family's name. Whether the names it gives are served is
// checked where a service serves them (cmd/greeter); that it gives every
// one of micrometerNames, here.
const operationsDoc = "../../../docs/operations.md"

// TestDocsNameMicrometersOwnNames: the table of names of
// docs/operations.md's section "Metrics" pairs every family of
// micrometerNames with its Micrometer name, the family in the first
// column, the name at the same place in the second.
func TestDocsNameMicrometersOwnNames(t *testing.T) {
	const where = operationsDoc + "'s table of Prometheus and /actuator/metrics names"
	pairs := map[string][]string{} // family → the names the table pairs it with
	table, rows := doctest.NamePairs(t, where, doctest.Section(t, doctest.Read(t, operationsDoc), "## Metrics"), "Prometheus")
	for _, p := range table {
		pairs[p[0]] = append(pairs[p[0]], p[1])
	}
	if rows < len(micrometerNames) {
		t.Fatalf("found %d rows in %s; the parse is wrong", rows, where)
	}
	for family, n := range micrometerNames {
		if got, ok := pairs[family]; !ok {
			t.Errorf("%s misses %s, whose /actuator/metrics name is Micrometer's own, %s (micrometerNames)", where, family, n.name)
		} else if !slices.Equal(got, []string{n.name}) {
			t.Errorf("%s pairs %s with %v; micrometerNames names it %s", where, family, got, n.name)
		}
	}
}
