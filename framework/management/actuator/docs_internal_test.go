package actuator

import (
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/logging"
	"github.com/springport/greeter/framework/testing/doctest"
)

// operationsDoc lists the endpoints, in its section "Management
// endpoints"; it is checked against the code here, so that an endpoint or
// a path added, removed or renamed fails the tests until the doc says so
// too.
const operationsDoc = "../../../docs/operations.md"

// TestDocsListTheEndpoints: the table of docs/operations.md's section
// "Management endpoints" names every endpoint of IDs, and only those;
// every path that Routes serves with every endpoint exposed and given what
// it needs, and only those (a method the table names is the route's);
// and, in the index's row, exactly the templated links of
// templatedLinks, each with its path.
func TestDocsListTheEndpoints(t *testing.T) {
	section := doctest.Section(t, doctest.Read(t, operationsDoc), "## Management endpoints")
	const where = operationsDoc + "'s table of management endpoints"

	var documented []endpointPath
	var indexRow string
	for _, row := range doctest.TableRows(section) {
		if row[0] == "Endpoint" {
			continue
		}
		previous := ""
		for _, span := range doctest.CodeSpans(row[0]) {
			method, path, ok := strings.Cut(span, " ")
			if !ok {
				method, path = "", span
			}
			path, _, _ = strings.Cut(path, "?") // /actuator/cpuprofile?seconds=N
			if !strings.HasPrefix(path, DefaultBasePath) {
				// /actuator/health/{group}, /{group}/{component}: joined
				// at the segment they share.
				first, rest, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
				if previous == "" || !strings.HasSuffix(previous, "/"+first) {
					t.Errorf("%s names %s, which neither starts with %s nor continues the path before it", where, span, DefaultBasePath)
					continue
				}
				path = previous + "/" + rest
			}
			previous = path
			documented = append(documented, endpointPath{method, path})
			if path == DefaultBasePath {
				indexRow = row[1]
			}
		}
	}
	if len(documented) < len(IDs) {
		t.Fatalf("found %d paths in %s (%v); the parse is wrong", len(documented), where, documented)
	}

	// The endpoints: the first segment below the base path.
	var ids []string
	for _, d := range documented {
		id, _, _ := strings.Cut(strings.TrimPrefix(d.path, DefaultBasePath+"/"), "/")
		if d.path != DefaultBasePath && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	doctest.CheckList(t, where+" (its endpoints)", "the code declares", ids, IDs)

	// The paths: every route of every endpoint, the index's included.
	routes := Routes(everyEndpoint(t))
	for _, id := range IDs {
		if !slices.ContainsFunc(routes, func(r dispatch.Route) bool { return strings.HasPrefix(r.Pattern, DefaultBasePath+"/"+id) }) {
			t.Fatalf("Routes serves nothing of %s with every endpoint given: the options of everyEndpoint miss what it needs", id)
		}
	}
	for _, r := range routes {
		if !slices.ContainsFunc(documented, func(d endpointPath) bool { return d.matches(r) }) {
			t.Errorf("%s misses %s %s, which Routes serves", where, r.Method, r.Pattern)
		}
	}
	for _, d := range documented {
		if !slices.ContainsFunc(routes, d.matches) {
			t.Errorf("%s names %s, which Routes does not serve", where, strings.TrimSpace(d.method+" "+d.path))
		}
	}

	// The index's templated links, in its row: `name` (`path`).
	var links, want []string
	for _, m := range regexp.MustCompile("`([a-z]+-[A-Za-z]+)` \\(`([^`]+)`\\)").FindAllStringSubmatch(indexRow, -1) {
		links = append(links, m[1]+" "+m[2])
	}
	for id, l := range templatedLinks {
		want = append(want, l.name+" "+DefaultBasePath+"/"+id+l.path)
	}
	doctest.CheckList(t, where+", in the row of "+DefaultBasePath+", its templated links (name and path)", "the code declares", links, want)
}

// everyEndpoint are options that expose every endpoint and give each what
// it needs to be served.
func everyEndpoint(t *testing.T) Options {
	var catalog dispatch.Catalog
	return Options{Exposure: Exposure{Include: []string{"*"}}, Env: emptyEnv(t), Mappings: &catalog,
		Components: func() []component.Info { return nil }, Exchanges: NewExchanges(), Shutdown: func() {}, Access: map[string]string{Shutdown: AccessUnrestricted, HeapDump: AccessUnrestricted},
		Prometheus: http.NotFoundHandler(), Metrics: noMeters{}, Loggers: logging.NewRegistry(slog.DiscardHandler, logging.Info)}
}

// endpointPath is a path of the doc's table, with the method it names, if
// any.
type endpointPath struct{ method, path string }

// matches reports whether the doc's path is the route's: the same
// literal segments, a {variable} where the route has one, or where it has
// a {rest...} that takes the remaining segments; a method, when the doc
// names one, the route's.
func (d endpointPath) matches(r dispatch.Route) bool {
	if d.method != "" && d.method != r.Method {
		return false
	}
	doc, route := strings.Split(d.path, "/"), strings.Split(r.Pattern, "/")
	for i, seg := range route {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "...}") {
			return len(doc) > i
		}
		if i >= len(doc) {
			return false
		}
		if variable(seg) != variable(doc[i]) || !variable(seg) && seg != doc[i] {
			return false
		}
	}
	return len(doc) == len(route)
}

func variable(segment string) bool { return strings.HasPrefix(segment, "{") }
