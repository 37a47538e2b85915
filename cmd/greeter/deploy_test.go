package main

// Tests of deploy/: the Grafana dashboard (deploy/grafana/greeter.json)
// and the Prometheus alerting rules (deploy/prometheus/alerts.yml). Their
// shape is checked always; with Prometheus's tools (see prometheusTools)
// promtool checks and unit-tests the rules, and a real Prometheus scrapes
// greeter while the test drives traffic, then runs every query of the
// dashboard and loads the rules. An empty panel or a rule Prometheus
// cannot evaluate fails the test, named.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/framework/testing/polltest"
	"github.com/springport/greeter/framework/testing/promtooltest"
)

const (
	dashboardFile = "../../deploy/grafana/greeter.json"
	alertsFile    = "../../deploy/prometheus/alerts.yml"
	alertsTest    = "alerts_test.yml" // beside alertsFile
	// histogramSetting makes the service publish the buckets that the
	// percentile panels and GreeterHighLatencyP99 read.
	histogramSetting = "management.metrics.distribution.percentiles-histogram.http.server.requests"
)

// dashboard is what the tests read of a Grafana dashboard's JSON model.
type dashboard struct {
	SchemaVersion int     `json:"schemaVersion"`
	Panels        []panel `json:"panels"`
	Templating    struct {
		List []variable `json:"list"`
	} `json:"templating"`
}

type panel struct {
	ID          int                `json:"id"`
	Type        string             `json:"type"`
	Title       string             `json:"title"`
	Description string             `json:"description"`
	Datasource  *grafanaDataSource `json:"datasource"`
	GridPos     struct{ H, W, X, Y int }
	Targets     []struct {
		RefID      string             `json:"refId"`
		Expr       string             `json:"expr"`
		Exemplar   bool               `json:"exemplar"` // Grafana marks the series with their exemplars
		Datasource *grafanaDataSource `json:"datasource"`
	} `json:"targets"`
	Panels []panel `json:"panels"` // a collapsed row's
}

type grafanaDataSource struct{ Type, UID string }

type variable struct {
	Name       string          `json:"name"`
	Type       string          `json:"type"`
	Query      json.RawMessage `json:"query"` // a string, or {"query": "..."} since Grafana 10
	Multi      bool            `json:"multi"`
	IncludeAll bool            `json:"includeAll"`
	AllValue   string          `json:"allValue"`
}

// query is the variable's query text, in either form.
func (v variable) query() string {
	var s string
	if json.Unmarshal(v.Query, &s) == nil {
		return s
	}
	var q struct{ Query string }
	json.Unmarshal(v.Query, &q)
	return q.Query
}

func loadDashboard(t *testing.T) dashboard {
	t.Helper()
	b, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	return d
}

// panels are the dashboard's panels, rows' included, rows themselves not.
func (d dashboard) panels() []panel {
	var all []panel
	var walk func([]panel)
	walk = func(ps []panel) {
		for _, p := range ps {
			if p.Type != "row" {
				all = append(all, p)
			}
			walk(p.Panels)
		}
	}
	walk(d.Panels)
	return all
}

func (d dashboard) variable(name string) (variable, bool) {
	for _, v := range d.Templating.List {
		if v.Name == name {
			return v, true
		}
	}
	return variable{}, false
}

// labelValues reads a variable's label_values(selector, label) query.
var labelValuesQuery = regexp.MustCompile(`^label_values\((.+),\s*(\w+)\)$`)

// metricName finds the names of the service's metric families in a
// query, with what follows each (quoted strings removed first): each
// must be followed by a selector's braces.
var (
	metricName   = regexp.MustCompile(`\b(?:http|go|process|hikaricp|jdbc|messages)_[a-z_]+\b(.?)`)
	matchers     = regexp.MustCompile(`\{[^}]*\}`)
	quoted       = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	instanceVar  = `instance=~"$instance"`
	applicationV = `application="$application"`
)

// TestDashboardIsWellFormed checks what Grafana needs to import the
// dashboard and what an operator relies on: the variables, every query
// narrowed to the selected application and instances, panels that do not
// overlap, and descriptions that say when a panel needs a setting or
// shows 0 for none.
func TestDashboardIsWellFormed(t *testing.T) {
	t.Parallel()
	d := loadDashboard(t)
	if d.SchemaVersion < 36 { // data source references are objects since 36
		t.Errorf("schemaVersion %d, want 36 or later", d.SchemaVersion)
	}
	if v, ok := d.variable("datasource"); !ok || v.Type != "datasource" || v.query() != "prometheus" {
		t.Errorf("no datasource variable of Prometheus data sources: %+v", v)
	}
	if v, ok := d.variable("application"); !ok || !strings.HasSuffix(v.query(), ", application)") {
		t.Errorf("the application variable does not list the application tag's values: %q", v.query())
	}
	if v, ok := d.variable("instance"); !ok || !strings.Contains(v.query(), applicationV) ||
		!strings.HasSuffix(v.query(), ", instance)") || !v.Multi || !v.IncludeAll || v.AllValue != ".*" {
		t.Errorf("the instance variable must list the selected application's instances, several at once or all (.*): %+v %q", v, v.query())
	}

	ids := map[int]string{}
	var boxes []panel
	for _, p := range append(d.panels(), rowsOf(d.Panels)...) {
		if other, dup := ids[p.ID]; dup {
			t.Errorf("panels %q and %q share the id %d", p.Title, other, p.ID)
		}
		ids[p.ID] = p.Title
		g := p.GridPos
		if g.W <= 0 || g.H <= 0 || g.X < 0 || g.X+g.W > 24 {
			t.Errorf("panel %q lies outside Grafana's 24 columns: %+v", p.Title, g)
		}
		for _, b := range boxes {
			if g.X < b.GridPos.X+b.GridPos.W && b.GridPos.X < g.X+g.W && g.Y < b.GridPos.Y+b.GridPos.H && b.GridPos.Y < g.Y+g.H {
				t.Errorf("panels %q and %q overlap: %+v %+v", p.Title, b.Title, g, b.GridPos)
			}
		}
		boxes = append(boxes, p)
	}

	for _, p := range d.panels() {
		if p.Title == "" || p.Description == "" || len(p.Targets) == 0 {
			t.Errorf("panel %d (%q) needs a title, a description and a query", p.ID, p.Title)
		}
		if p.Datasource == nil || p.Datasource.UID != "${datasource}" {
			t.Errorf("panel %q does not read the selected data source ${datasource}: %+v", p.Title, p.Datasource)
		}
		for _, target := range p.Targets {
			where := fmt.Sprintf("panel %q, query %s: %s", p.Title, target.RefID, target.Expr)
			if target.Datasource == nil || target.Datasource.UID != "${datasource}" {
				t.Errorf("%s: does not read ${datasource}", where)
			}
			for _, m := range metricName.FindAllStringSubmatch(quoted.ReplaceAllString(target.Expr, `""`), -1) {
				if m[1] != "{" {
					t.Errorf("%s: %s has no selector: every series must be narrowed to the application and instances", where, strings.TrimSuffix(m[0], m[1]))
				}
			}
			for _, sel := range matchers.FindAllString(target.Expr, -1) {
				if !strings.Contains(sel, applicationV) || !strings.Contains(sel, instanceVar) {
					t.Errorf("%s: the selector %s lacks %s or %s", where, sel, applicationV, instanceVar)
				}
			}
			if strings.Contains(target.Expr, "_bucket") && !strings.Contains(p.Description, histogramSetting+"=true") {
				t.Errorf("panel %q reads histogram buckets but its description does not name %s=true", p.Title, histogramSetting)
			}
			if strings.Contains(target.Expr, " or ") && !strings.Contains(p.Description, "Reads 0") {
				t.Errorf("%s: pads missing series with zeros, and its description does not say it reads 0", where)
			}
		}
	}
}

// rowsOf are the row panels, for the checks of ids and positions.
func rowsOf(ps []panel) []panel {
	var rows []panel
	for _, p := range ps {
		if p.Type == "row" {
			rows = append(rows, p)
		}
	}
	return rows
}

// alertRules is what the tests read of a Prometheus rule file.
type alertRules struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []struct {
			Alert       string            `yaml:"alert"`
			Record      string            `yaml:"record"`
			Expr        string            `yaml:"expr"`
			For         string            `yaml:"for"`
			Labels      map[string]string `yaml:"labels"`
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

func loadAlertRules(t *testing.T) alertRules {
	t.Helper()
	b, err := os.ReadFile(alertsFile)
	if err != nil {
		t.Fatal(err)
	}
	var r alertRules
	if err := yaml.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", alertsFile, err)
	}
	return r
}

// alertNames lists the file's alerts.
func (r alertRules) alertNames() []string {
	var names []string
	for _, g := range r.Groups {
		for _, rule := range g.Rules {
			if rule.Alert != "" {
				names = append(names, rule.Alert)
			}
		}
	}
	return names
}

// TestAlertRulesAreComplete checks what an on-call reader of an alert
// relies on: a for: that keeps a blip from paging, a severity to route
// it, a summary and a description; and that the unit tests exercise every
// alert.
func TestAlertRulesAreComplete(t *testing.T) {
	t.Parallel()
	r := loadAlertRules(t)
	tests, err := os.ReadFile(filepath.Join(filepath.Dir(alertsFile), alertsTest))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range r.Groups {
		for _, rule := range g.Rules {
			if rule.Alert == "" {
				continue
			}
			if rule.For == "" {
				t.Errorf("%s has no for:", rule.Alert)
			}
			if s := rule.Labels["severity"]; s != "critical" && s != "warning" && s != "info" {
				t.Errorf("%s: severity %q, want critical, warning or info", rule.Alert, s)
			}
			if rule.Annotations["summary"] == "" || rule.Annotations["description"] == "" {
				t.Errorf("%s needs a summary and a description", rule.Alert)
			}
			if !strings.Contains(string(tests), "alertname: "+rule.Alert+"\n") {
				t.Errorf("%s has no unit test in %s", rule.Alert, alertsTest)
			}
		}
	}
	if len(r.alertNames()) == 0 {
		t.Errorf("%s holds no alert", alertsFile)
	}
}

// TestAlertRulesPassPromtool checks the rule file with promtool, and runs
// its unit tests: each alert fires on series made to trip it, and stays
// quiet on healthy ones and before its for: has passed.
func TestAlertRulesPassPromtool(t *testing.T) {
	t.Parallel()
	_, promtool := prometheusTools(t)
	if out, err := exec.Command(promtool, "check", "rules", alertsFile).CombinedOutput(); err != nil {
		t.Errorf("promtool check rules: %v\n%s", err, out)
	}
	cmd := exec.Command(promtool, "test", "rules", alertsTest)
	cmd.Dir = filepath.Dir(alertsFile)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("promtool test rules: %v\n%s", err, out)
	}
}

// The rate windows the test substitutes for Grafana's: $__rate_interval
// is max($__interval + scrape interval, 4 × scrape interval), 4s with the
// test's 1s scrape interval.
const (
	scrapeInterval = "1s"
	rateInterval   = "4s"
	// dashboardDeadline bounds the wait for every panel to have data:
	// normally a few seconds (Prometheus's start and four scrapes).
	dashboardDeadline = time.Minute
)

// prometheusConfig scrapes the management port of greeter (%[1]s) every
// second, under the job that GreeterInstanceDown expects, and loads the
// rule file (%[2]s).
const prometheusConfig = `global:
  scrape_interval: ` + scrapeInterval + `
  scrape_timeout: ` + scrapeInterval + `
  evaluation_interval: ` + scrapeInterval + `
rule_files:
  - %[2]q
scrape_configs:
  - job_name: greeter
    metrics_path: /actuator/prometheus
    static_configs:
      - targets: [%[1]q]
`

// TestDashboardAgainstPrometheus runs greeter, as it is deployed, under a
// real Prometheus: every query of every panel must find series, the
// variables must offer greeter and its instance, and Prometheus must load
// and evaluate every alerting rule, and the p99 panels must find the
// exemplar of a traced request, with its trace. With GREETER_TEST_POSTGRES_URL set,
// greeter keeps its messages in PostgreSQL, so that the pool panels are
// checked too; without it they are not (their series exist only with
// PostgreSQL), and the test says so.
func TestDashboardAgainstPrometheus(t *testing.T) {
	t.Parallel()
	prometheus, promtool := prometheusTools(t)
	d := loadDashboard(t)
	rulesFile, err := filepath.Abs(alertsFile)
	if err != nil {
		t.Fatal(err)
	}

	// The tag application="greeter" that the panels select comes from
	// greeter's packaged settings
	// (management.metrics.tags.application=${app.application.name}); the
	// test sets nothing of it, so that it checks those defaults.
	//
	// Spans are exported (to a receiver that takes them and keeps
	// nothing), every one sampled, so that the request timer's buckets
	// carry exemplars, which Prometheus stores with its exemplar storage
	// on: the latency panels link a bucket to its trace through them.
	spans := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
	}))
	t.Cleanup(spans.Close)
	args := []string{
		"--management.opentelemetry.tracing.export.otlp.endpoint=" + spans.URL + "/v1/traces",
		"--management.tracing.sampling.probability=1",
		"--management.server.port=0", // scraped on its own port, as in production
		"--management.endpoints.web.exposure.include=health,prometheus",
		"--" + histogramSetting + "=true",
		"--app.number.scope=session", // so that /api/number/val-a keeps a session
	}
	withPostgres := os.Getenv(enginetest.PostgresVar) != ""
	if withPostgres {
		args = append(args, "--app.datasource.url="+enginetest.Postgres(t))
	} else {
		t.Logf("%s is unset: greeter keeps its messages in memory, and the PostgreSQL pool panels are not checked", enginetest.PostgresVar)
	}
	// With Redis, the sessions live there, so that the Redis pool panels
	// (and the session panels, from the Redis store) are checked too.
	withRedis := os.Getenv(enginetest.RedisVar) != ""
	if withRedis {
		redisURL, prefix := enginetest.Redis(t)
		args = append(args, "--app.session.store-type=redis", "--app.data.redis.url="+redisURL,
			"--app.session.data.redis.namespace="+strings.TrimSuffix(prefix, ":"))
	} else {
		t.Logf("%s is unset: greeter keeps its sessions in memory, and the Redis pool panels are not checked", enginetest.RedisVar)
	}
	s := start(t, args, nil)
	traffic := newTraffic(t, s)
	traffic.round(t) // every request series exists from the first scrape

	scrape := boottest.Send(t, nil, "GET", s.ManagementURL+"/actuator/prometheus", "")
	if scrape.Status != http.StatusOK {
		t.Fatalf("GET /actuator/prometheus on the management port: %d\n%.500s", scrape.Status, scrape.Body)
	}
	lint := exec.Command(promtool, "check", "metrics")
	lint.Stdin = strings.NewReader(scrape.Body)
	if out, err := lint.CombinedOutput(); err != nil && !promtooltest.OnlyMicrometersLint(err, out) {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}

	target := strings.TrimPrefix(s.ManagementURL, "http://")
	prom := startPrometheus(t, prometheus, fmt.Sprintf(prometheusConfig, target, rulesFile), "--enable-feature=exemplar-storage")

	// The values Grafana would put in the queries with greeter and its
	// one instance selected: a selected instance is a regular expression,
	// escaped, in a PromQL string.
	vars := strings.NewReplacer(
		"$application", "greeter",
		"$instance", strings.ReplaceAll(regexp.QuoteMeta(target), `\`, `\\`),
		"$__rate_interval", rateInterval,
		"$__interval", scrapeInterval,
		"$__range", "1m",
	)
	type check struct {
		what, expr string
		// positive: the query must find a value above 0, not only series.
		// The 5xx queries must, since every round sends a 500: that shows
		// they count it, rather than the zeros they pad with when none.
		positive bool
		err      error // why the last answer did not do: an error, errNoSeries or errNotPositive
		found    bool
	}
	var checks []*check
	for _, p := range d.panels() {
		for _, target := range p.Targets {
			if !withPostgres && (strings.Contains(target.Expr, "hikaricp_") || strings.Contains(target.Expr, "jdbc_")) ||
				!withRedis && strings.Contains(target.Expr, "redis_pool_") {
				continue
			}
			checks = append(checks, &check{what: fmt.Sprintf("panel %q, query %s", p.Title, target.RefID),
				expr: vars.Replace(target.Expr), positive: strings.Contains(target.Expr, "SERVER_ERROR")})
		}
	}
	for _, c := range checks {
		if strings.Contains(c.expr, "$") {
			t.Fatalf("%s uses a variable the test does not know: %s", c.what, c.expr)
		}
	}
	wantRules := loadAlertRules(t).alertNames()

	// Poll, sending traffic each round, until every query finds series
	// and every rule has been evaluated without error, or the deadline.
	// A round sends traffic and runs every query still pending: a quarter
	// of a second between rounds is often enough beside Prometheus's
	// scrape and evaluation every second.
	var variablesErr, rulesErr, exemplarsErr error
	polltest.CheckEvery(dashboardDeadline, 250*time.Millisecond, func() error {
		traffic.round(t)
		pending := 0
		for _, c := range checks {
			if c.found {
				continue // series found in an earlier round
			}
			series, err := prom.query(c.expr)
			switch {
			case err != nil:
				c.err = err
			case len(series) == 0:
				c.err = errNoSeries
			case c.positive && !slices.ContainsFunc(series, sample.positive):
				c.err = fmt.Errorf("%w: %v", errNotPositive, series)
			default:
				c.found = true
				continue
			}
			pending++
		}
		variablesErr = checkVariables(prom, d, target)
		rulesErr = checkRules(prom, wantRules)
		exemplarsErr = checkExemplars(prom, d, vars)
		if pending == 0 && variablesErr == nil && rulesErr == nil && exemplarsErr == nil {
			return nil
		}
		return errors.New("not yet") // each part's error is reported below
	})

	for _, c := range checks {
		if !c.found {
			t.Errorf("%s: %v: %s%s", c.what, c.err, c.expr, whyEmpty(prom, c.expr))
		}
	}
	if variablesErr != nil {
		t.Error(variablesErr)
	}
	if rulesErr != nil {
		t.Error(rulesErr)
	}
	if exemplarsErr != nil {
		t.Error(exemplarsErr)
	}
	if t.Failed() {
		up, err := prom.query(`up{job="greeter"}`)
		t.Logf("up{job=\"greeter\"} = %v (%v); Prometheus's log:\n%s", up, err, boottest.Tail(prom.output.String(), 20))
	}
}

// checkExemplars: the panels that show exemplars find, for the
// traffic's traced GET /api/hello, an exemplar with the trace it sent.
func checkExemplars(prom *promServer, d dashboard, vars *strings.Replacer) error {
	var shown int
	for _, p := range d.panels() {
		for _, target := range p.Targets {
			if !target.Exemplar {
				continue
			}
			shown++
			all, err := prom.exemplars(vars.Replace(target.Expr))
			if err != nil {
				return fmt.Errorf("panel %q, query %s: exemplars: %w", p.Title, target.RefID, err)
			}
			if !slices.ContainsFunc(all, func(e exemplar) bool { return e.Labels["trace_id"] == trafficTrace && e.Labels["span_id"] != "" }) {
				return fmt.Errorf("panel %q, query %s: no exemplar with trace_id %s among %d", p.Title, target.RefID, trafficTrace, len(all))
			}
		}
	}
	if shown == 0 {
		return errors.New("no panel shows exemplars")
	}
	return nil
}

var (
	errNoSeries    = errors.New("no series")
	errNotPositive = errors.New("no value above 0")
)

// whyEmpty hints why a query found nothing: a metric Prometheus has no
// series of at all (the service does not publish it), or series that the
// query finds without the application matcher (the service does not tag
// them).
func whyEmpty(prom *promServer, expr string) string {
	var absent []string
	for _, m := range metricName.FindAllStringSubmatch(quoted.ReplaceAllString(expr, `""`), -1) {
		name := strings.TrimSuffix(m[0], m[1])
		if series, err := prom.query("count(" + name + ")"); err == nil && len(series) == 0 && !slices.Contains(absent, name) {
			absent = append(absent, name)
		}
	}
	if len(absent) > 0 {
		return "\n\t(Prometheus has no series of " + strings.Join(absent, ", ") + ": the service does not publish them)"
	}
	untagged := strings.ReplaceAll(expr, `application="greeter", `, "")
	if series, err := prom.query(untagged); untagged != expr && err == nil && len(series) > 0 {
		return fmt.Sprintf("\n\t(without application=\"greeter\" it finds %d series: the service does not tag them with management.metrics.tags.application)", len(series))
	}
	return ""
}

// checkVariables checks that the dashboard's variables offer greeter and
// the scraped instance, as Grafana would list them.
func checkVariables(prom *promServer, d dashboard, instance string) error {
	want := map[string]string{"application": "greeter", "instance": instance}
	for _, name := range []string{"application", "instance"} {
		v, _ := d.variable(name)
		m := labelValuesQuery.FindStringSubmatch(strings.ReplaceAll(v.query(), "$application", "greeter"))
		if m == nil {
			return fmt.Errorf("variable %s: %q is not label_values(selector, label)", name, v.query())
		}
		values, err := prom.labelValues(m[2], m[1])
		if err != nil {
			return fmt.Errorf("variable %s: %v", name, err)
		}
		if !slices.Contains(values, want[name]) {
			return fmt.Errorf("variable %s (%s) offers %q, not %q", name, v.query(), values, want[name])
		}
	}
	return nil
}

// checkRules checks that Prometheus loaded every alert of the rule file
// and evaluated each without error.
func checkRules(prom *promServer, want []string) error {
	loaded, err := prom.rules()
	if err != nil {
		return fmt.Errorf("/api/v1/rules: %v", err)
	}
	var names []string
	for _, r := range loaded {
		names = append(names, r.Name)
		if r.Health != "ok" {
			return fmt.Errorf("rule %s: health %q %s", r.Name, r.Health, r.LastError)
		}
	}
	slices.Sort(names)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(names, want) {
		return fmt.Errorf("Prometheus loaded the rules %q, want %q", names, want)
	}
	return nil
}

// traffic is what a round of requests sends greeter: a success of each
// kind the panels show, client errors, a 5xx, and a session.
type traffic struct {
	s        *service
	sessions *http.Client // keeps the session cookie
}

func newTraffic(t *testing.T, s *service) *traffic {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &traffic{s: s, sessions: &http.Client{Jar: jar}}
}

// trafficTrace is the trace of the traffic's traced request.
const trafficTrace = "4bf92f3577b34da6a3ce929d0e0e4736"

func (tr *traffic) round(t *testing.T) {
	t.Helper()
	jsonBody := "Content-Type: application/json"
	for _, r := range []struct {
		method, path, body string
		headers            []string
		status             int
	}{
		{"GET", "/api/hello", "", nil, 200},
		{"GET", "/api/hello", "", []string{"traceparent: 00-" + trafficTrace + "-00f067aa0ba902b7-01"}, 200}, // a traced request: its bucket's exemplar
		{"POST", "/api/messages", `{"text":"a dashboard"}`, []string{jsonBody}, 201},
		{"GET", "/api/messages", "", nil, 200},
		{"GET", "/api/hello/x", "", nil, 400},            // not an integer id
		{"GET", "/no/such/path", "", nil, 404},           // uri NOT_FOUND
		{"GET", "/api/messages/100000000", "", nil, 500}, // past the end: greeter's 500, as the Spring service it ports answers
	} {
		if got := tr.s.do(t, r.method, r.path, r.body, r.headers...).status; got != r.status {
			t.Fatalf("%s %s: %d, want %d", r.method, r.path, got, r.status)
		}
	}
	if got := tr.s.doWith(t, tr.sessions, "GET", "/api/number/val-a", "").status; got != 200 {
		t.Fatalf("GET /api/number/val-a: %d", got)
	}
}
