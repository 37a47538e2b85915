package main

// The lists of the docs that name what greeter serves, its endpoints and
// its metrics, checked against what a running greeter serves, so that a
// route or a metric added, removed or renamed fails here until the docs
// follow.

import (
	"encoding/json"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/testing/doctest"
	"github.com/springport/greeter/framework/testing/enginetest"
)

// TestDocsListGreetersEndpoints: the table of docs/greeter.md's section
// "Endpoints" names every operation of greeter's OpenAPI document
// (/v3/api-docs, made from the routes it serves) by its method and path,
// and only those, each with the operation's success status, and, where
// the path shows a query, the operation's query parameters.
func TestDocsListGreetersEndpoints(t *testing.T) {
	t.Parallel()
	const doc = "../../docs/greeter.md"
	where := doc + "'s table of endpoints"
	s := start(t, nil, nil)
	type operation struct {
		Parameters []struct{ Name, In string }
		Responses  map[string]any
	}
	api := decodeJSON[struct {
		Paths map[string]map[string]json.RawMessage
	}](t, s.do(t, "GET", "/v3/api-docs", ""))
	served := map[string]operation{} // "METHOD /path"
	for path, item := range api.Paths {
		for key, raw := range item {
			method := strings.ToUpper(key)
			if !slices.Contains([]string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"}, method) {
				continue // the path's summary, its parameters
			}
			var op operation
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("/v3/api-docs: %s %s: %v", method, path, err)
			}
			served[method+" "+path] = op
		}
	}
	if len(served) < 5 {
		t.Fatalf("/v3/api-docs has %d operations: %v", len(served), api.Paths)
	}

	var listed []string
	for _, row := range doctest.TableRows(doctest.Section(t, doctest.Read(t, doc), "## Endpoints")) {
		if len(row) < 4 || row[1] == "Method" {
			continue
		}
		target := strings.Trim(row[2], "`")
		path, query, _ := strings.Cut(target, "?")
		endpoint := row[1] + " " + path
		listed = append(listed, endpoint)
		op, ok := served[endpoint]
		if !ok {
			continue // reported below
		}
		status, _, _ := strings.Cut(row[3], ",")
		if successes(op.Responses) != status {
			t.Errorf("%s gives %s success %q; the OpenAPI document's is %s", where, endpoint, status, successes(op.Responses))
		}
		if query == "" {
			continue
		}
		values, err := url.ParseQuery(query)
		if err != nil {
			t.Errorf("%s: the query of %s: %v", where, target, err)
		}
		var named, params []string
		for name := range values {
			named = append(named, name)
		}
		for _, p := range op.Parameters {
			if p.In == "query" {
				params = append(params, p.Name)
			}
		}
		slices.Sort(named)
		slices.Sort(params)
		if !slices.Equal(named, params) {
			t.Errorf("%s shows %s with the query parameters %v; the OpenAPI document's are %v", where, endpoint, named, params)
		}
	}
	for endpoint := range served {
		if !slices.Contains(listed, endpoint) {
			t.Errorf("%s misses %s, which greeter serves", where, endpoint)
		}
	}
	for i, endpoint := range listed {
		if _, ok := served[endpoint]; !ok {
			t.Errorf("%s names %s, which greeter does not serve", where, endpoint)
		}
		if slices.Contains(listed[:i], endpoint) {
			t.Errorf("%s names %s twice", where, endpoint)
		}
	}
}

// successes returns the 2xx statuses of an operation's responses, joined.
func successes(responses map[string]any) string {
	var out []string
	for status := range responses {
		if strings.HasPrefix(status, "2") {
			out = append(out, status)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// The prefixes of the metrics greeter serves only with PostgreSQL (its
// pool's) or Redis (the session store's pool).
var (
	postgresMetrics = []string{"jdbc_", "hikaricp_"}
	redisMetrics    = []string{"redis_"}
)

// TestDocsNameServedMetrics: every Prometheus metric that README.md and
// docs/*.md name (a family, a series such as `_count`, a pattern such as
// `go_*`, or `_idle` after `jdbc_connections_active` in a list) is in
// greeter's /actuator/prometheus; and each row of the table of names of
// docs/operations.md's section "Metrics" pairs a family with the
// /actuator/metrics meter that greeter serves for it (the meter whose
// description is the family's help). The metrics of the PostgreSQL pool
// and the Redis pool are checked when the engine variables are set, as in
// CI.
func TestDocsNameServedMetrics(t *testing.T) {
	t.Parallel()
	args := []string{"--management.endpoints.web.exposure.include=health,metrics,prometheus"}
	var unchecked []string // prefixes of the metrics of an engine that is not set
	if os.Getenv(enginetest.PostgresVar) != "" {
		args = append(args, "--app.datasource.url="+enginetest.Postgres(t))
	} else {
		t.Logf("%s is unset: the metrics %v… are not checked", enginetest.PostgresVar, postgresMetrics)
		unchecked = append(unchecked, postgresMetrics...)
	}
	if os.Getenv(enginetest.RedisVar) != "" {
		redisURL, prefix := enginetest.Redis(t)
		args = append(args, "--app.session.store-type=redis", "--app.data.redis.url="+redisURL,
			"--app.session.data.redis.namespace="+strings.TrimSuffix(prefix, ":"))
	} else {
		t.Logf("%s is unset: the metrics %v… are not checked", enginetest.RedisVar, redisMetrics)
		unchecked = append(unchecked, redisMetrics...)
	}
	s := start(t, args, nil)
	s.do(t, "GET", "/api/hello", "") // a request, so that the request timer has a series
	m := scrapeMetrics(t, s)
	skipped := func(name string) bool {
		return slices.ContainsFunc(unchecked, func(p string) bool { return strings.HasPrefix(name, p) })
	}

	// Every metric the docs name.
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(pages) < 5 {
		t.Fatalf("docs/*.md: %v, %d files", err, len(pages))
	}
	named := 0
	for _, page := range append(pages, "../../README.md") {
		for _, name := range namedMetrics(doctest.Read(t, page), m.prefixes()) {
			named++
			if skipped(name.names[0]) || slices.ContainsFunc(name.names, func(n string) bool { return len(m.matching(n)) > 0 }) {
				continue
			}
			if name.continues != "" {
				t.Errorf("%s names %s after %s, and greeter serves none of %v", page, name.text, name.continues, name.names)
			} else {
				t.Errorf("%s names %s, which greeter does not serve", page, name.text)
			}
		}
	}
	if named < 30 {
		t.Fatalf("found %d metrics named in the docs; the parse is wrong", named)
	}

	// The table's pairs: each family of a row's first column, or each that
	// its pattern matches, has a meter of the second column's name, or of
	// its pattern, with the family's help as its description.
	const doc = "../../docs/operations.md"
	where := doc + "'s table of Prometheus and /actuator/metrics names"
	pairs, rows := doctest.NamePairs(t, where, doctest.Section(t, doctest.Read(t, doc), "## Metrics"), "Prometheus")
	for _, p := range pairs {
		pattern, meter := p[0], p[1]
		if skipped(pattern) {
			continue
		}
		if len(m.meterNames(meter)) == 0 {
			t.Errorf("%s names the meter %s, which greeter's /actuator/metrics does not list", where, meter)
			continue
		}
		for _, family := range m.matching(pattern) {
			if _, ok := m.help[family]; !ok {
				continue // a series, such as a summary's _count
			}
			var found []string
			for _, name := range m.meterNames(meter) {
				if m.description[name] == m.help[family] {
					found = append(found, name)
				}
			}
			if len(found) != 1 {
				t.Errorf("%s pairs %s with %s; greeter's /actuator/metrics serves it as %v (the meters described %q)", where, family, meter, m.meterOf(family), m.help[family])
			}
		}
	}
	if rows < 5 {
		t.Fatalf("found %d rows in %s; the parse is wrong", rows, where)
	}
}

// servedMetrics is what greeter's /actuator/prometheus and
// /actuator/metrics serve.
type servedMetrics struct {
	help        map[string]string // family → its help
	samples     map[string]bool   // the names of the series' samples: http_server_requests_seconds_count
	description map[string]string // meter → its description
}

// scrapeMetrics reads s's /actuator/prometheus in the text format, and
// every meter of its /actuator/metrics.
func scrapeMetrics(t *testing.T, s *service) servedMetrics {
	t.Helper()
	m := servedMetrics{help: map[string]string{}, samples: map[string]bool{}, description: map[string]string{}}
	scrape := s.do(t, "GET", "/actuator/prometheus", "", "Accept: text/plain")
	for line := range strings.Lines(scrape.body) {
		if help, ok := strings.CutPrefix(line, "# HELP "); ok {
			name, text, _ := strings.Cut(strings.TrimSpace(help), " ")
			m.help[name] = strings.NewReplacer(`\\`, `\`, `\n`, "\n").Replace(text)
		} else if !strings.HasPrefix(line, "#") && strings.TrimSpace(line) != "" {
			m.samples[regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*`).FindString(line)] = true
		}
	}
	if len(m.help) < 20 {
		t.Fatalf("/actuator/prometheus serves %d families:\n%.500s", len(m.help), scrape.body)
	}
	names := decodeJSON[struct{ Names []string }](t, s.do(t, "GET", "/actuator/metrics", "")).Names
	for _, name := range names {
		meter := decodeJSON[struct{ Description string }](t, s.do(t, "GET", "/actuator/metrics/"+name, ""))
		m.description[name] = meter.Description
	}
	return m
}

// matching returns the families and samples that pattern names: itself,
// or those it matches when it ends with *.
func (m servedMetrics) matching(pattern string) []string {
	var out []string
	for name := range m.samples {
		if matchesPattern(pattern, name) {
			out = append(out, name)
		}
	}
	for name := range m.help {
		if matchesPattern(pattern, name) && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// meterNames returns the meters that pattern names.
func (m servedMetrics) meterNames(pattern string) []string {
	var out []string
	for name := range m.description {
		if matchesPattern(pattern, name) {
			out = append(out, name)
		}
	}
	return out
}

// meterOf returns the meters described as the family is.
func (m servedMetrics) meterOf(family string) []string {
	var out []string
	for name, d := range m.description {
		if d == m.help[family] {
			out = append(out, name)
		}
	}
	return out
}

// prefixes returns the first words of the families' names (go, http,
// process...): a code span that starts with one and an underscore names
// a metric.
func (m servedMetrics) prefixes() []string {
	var out []string
	for _, name := range slices.Concat(slices.Collect(maps.Keys(m.help)), postgresMetrics, redisMetrics) {
		if p, _, _ := strings.Cut(name, "_"); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func matchesPattern(pattern, name string) bool {
	if prefix, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(name, prefix) && name != prefix
	}
	return name == pattern
}

// namedMetric is a metric a doc names: in full, or as a continuation of
// the one before it in a list (`_idle` after `jdbc_connections_active`).
type namedMetric struct {
	text      string   // as the doc writes it
	continues string   // the name it continues, if it does
	names     []string // the names it may stand for
}

// namedMetrics returns the metrics a doc names in code spans outside its
// code blocks: a span that starts with one of prefixes and an underscore,
// and a span that starts with an underscore when it follows one, with
// nothing but commas, "and", "or", an opening parenthesis or a
// parenthesised remark between them. A continuation stands for the name
// before it with some of its last words replaced: `_idle` after
// `jdbc_connections_active`, `_active` after `hikaricp_connections`,
// `_misses_total` after `redis_pool_hits_total`.
func namedMetrics(doc string, prefixes []string) []namedMetric {
	text := doctest.WithoutCodeBlocks(doc)
	metric := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*_?\*?$`)
	list := regexp.MustCompile(`^[\s,(]*(and|or)?\s*$`)
	remark := regexp.MustCompile(`\([^()]*\)`)
	var out []namedMetric
	previous, end := "", 0
	for _, loc := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatchIndex(text, -1) {
		span, gap := text[loc[2]:loc[3]], text[end:loc[0]]
		end = loc[1]
		if rest, ok := strings.CutPrefix(span, "_"); ok && previous != "" && metric.MatchString(rest) && list.MatchString(remark.ReplaceAllString(gap, "")) {
			words := strings.Split(previous, "_")
			var names []string
			for k := len(words); k >= 1; k-- {
				names = append(names, strings.Join(words[:k], "_")+span)
			}
			out = append(out, namedMetric{text: span, continues: previous, names: names})
			continue
		}
		previous = ""
		first, _, ok := strings.Cut(span, "_")
		if ok && metric.MatchString(span) && slices.Contains(prefixes, first) {
			previous = span
			out = append(out, namedMetric{text: span, names: []string{span}})
		}
	}
	return out
}
