package conformance_test

// TestSchemathesis fuzzes greeter from its own OpenAPI document with
// schemathesis (PyPI; .ci/run installs the version it pins and names it in
// GREETER_TEST_SCHEMATHESIS), and runs the same against both Spring builds
// of the reference application, whose results are reported beside
// greeter's but fail nothing: Spring is the oracle, not the product.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The run's bounds: the seed makes it the same every time, and at most
// this many examples are generated per operation and phase (the coverage
// phase adds its own, a few per operation). With the settings of
// testdata/schemathesis.toml (one worker, no example database), a run of
// greeter is about 1,000 requests.
const (
	schemathesisSeed     = 1
	schemathesisExamples = 100
)

// schemathesisExecutable returns the st executable that
// GREETER_TEST_SCHEMATHESIS names. Without the variable the test is
// skipped, unless GREETER_TEST_SPRING=1 (as in CI), which makes its
// absence a failure as it does a missing jar; a variable that names no
// executable always fails.
func schemathesisExecutable(t *testing.T) string {
	t.Helper()
	path := os.Getenv("GREETER_TEST_SCHEMATHESIS")
	if path == "" {
		if springRequired() {
			t.Fatal("GREETER_TEST_SCHEMATHESIS is unset, and GREETER_TEST_SPRING=1: set it to schemathesis's st executable (.ci/run installs it)")
		}
		t.Skip("schemathesis test skipped: set GREETER_TEST_SCHEMATHESIS to schemathesis's st executable (.ci/run installs it)")
	}
	out, err := exec.Command(path, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("GREETER_TEST_SCHEMATHESIS=%s: %v\n%s", path, err, out)
	}
	return path
}

// stReport is what the test reads of schemathesis's JSON report.
type stReport struct {
	Version    string  `json:"schemathesis_version"`
	Seed       int64   `json:"seed"`
	Seconds    float64 `json:"running_time"`
	Operations struct {
		Total  int `json:"total"`
		Tested int `json:"tested"`
	} `json:"operations"`
	TestCases struct {
		Generated    int `json:"generated"`
		WithFailures int `json:"with_failures"`
	} `json:"test_cases"`
	Failures []struct {
		Code       string   `json:"code"`
		Title      string   `json:"title"`
		Count      int      `json:"count"`
		Operations []string `json:"operations"`
	} `json:"failures"`
	Errors []json.RawMessage `json:"errors"`
}

// harEntry is one exchange of schemathesis's HAR report.
type harEntry struct {
	Request struct {
		Method string `json:"method"`
		URL    string `json:"url"`
	} `json:"request"`
	Response struct {
		Status  int `json:"status"`
		Content struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"response"`
}

// stRun is one target's run.
type stRun struct {
	target string
	report stReport
	har    []harEntry
	output string // what st printed
	err    error  // st's exit status
}

// runSchemathesis runs st against the document at base/v3/api-docs, in a
// directory of its own (st keeps caches in its working directory), with
// its reports in the test's artifact directory (go test -artifacts keeps
// them).
func runSchemathesis(t *testing.T, st, target, base string) *stRun {
	t.Helper()
	config, err := filepath.Abs(filepath.Join("testdata", "schemathesis.toml"))
	if err != nil {
		t.Fatal(err)
	}
	reports := t.ArtifactDir()
	args := []string{"--config-file", config, "run", base + "/v3/api-docs",
		"--seed", fmt.Sprint(schemathesisSeed), "--max-examples", fmt.Sprint(schemathesisExamples),
		"--no-color", "--report", "json,har",
		"--report-json-path", filepath.Join(reports, "report.json"), "--report-har-path", filepath.Join(reports, "report.har")}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, st, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "SCHEMATHESIS_TELEMETRY=false")
	t.Logf("%s: st %s", target, strings.Join(args, " "))
	out, err := cmd.CombinedOutput()
	run := &stRun{target: target, output: string(out), err: err}
	if werr := os.WriteFile(filepath.Join(reports, "st.out"), out, 0o644); werr != nil {
		t.Error(werr)
	}
	data, rerr := os.ReadFile(filepath.Join(reports, "report.json"))
	if rerr == nil {
		rerr = json.Unmarshal(data, &run.report)
	}
	if rerr != nil {
		t.Fatalf("%s: schemathesis wrote no JSON report (%v); st: %v\n%s", target, rerr, err, out)
	}
	var har struct {
		Log struct {
			Entries []harEntry `json:"entries"`
		} `json:"log"`
	}
	data, rerr = os.ReadFile(filepath.Join(reports, "report.har"))
	if rerr == nil {
		rerr = json.Unmarshal(data, &har)
	}
	if rerr != nil {
		t.Fatalf("%s: schemathesis wrote no HAR report (%v)", target, rerr)
	}
	run.har = har.Log.Entries
	return run
}

// serverErrors counts the exchanges answered 5xx.
func (r *stRun) serverErrors() int {
	n := 0
	for _, e := range r.har {
		if e.Response.Status >= 500 {
			n++
		}
	}
	return n
}

// failuresByCheck is the report's failures, as "ST101 Server error: 3"
// (schemathesis's code and title, and how many distinct failures), or
// "none".
func (r *stRun) failuresByCheck() string {
	var parts []string
	for _, f := range r.report.Failures {
		parts = append(parts, fmt.Sprintf("%s %s: %d", f.Code, f.Title, f.Count))
	}
	if len(r.report.Errors) > 0 {
		parts = append(parts, fmt.Sprintf("errors: %d", len(r.report.Errors)))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// missingIndex is the detail of the one 5xx greeter may answer: a message
// index that does not exist (testdata/schemathesis.toml says why).
var (
	indexPath    = regexp.MustCompile(`^/api/messages/-?\d+$`)
	missingIndex = regexp.MustCompile(`^No message at index -?\d+; the collection holds \d+\.$`)
)

// TestSchemathesis runs schemathesis against greeter, which must pass
// every check, and against each Spring build, whose results are only
// reported; the summary table is logged at the end.
func TestSchemathesis(t *testing.T) {
	st := schemathesisExecutable(t)
	var (
		mu   sync.Mutex
		runs = map[string]*stRun{}
	)
	keep := func(r *stRun) {
		mu.Lock()
		defer mu.Unlock()
		runs[r.target] = r
	}
	t.Run("targets", func(t *testing.T) {
		t.Run("greeter", func(t *testing.T) {
			t.Parallel()
			base := startedGreeter(t)
			checkSearchPathAnswers(t, "greeter", base)
			r := runSchemathesis(t, st, "greeter", base)
			keep(r)
			if r.err != nil || len(r.report.Failures) > 0 || len(r.report.Errors) > 0 {
				t.Errorf("schemathesis found failures in greeter (%v):\n%s", r.err, r.output)
			}
			if r.report.Operations.Tested != r.report.Operations.Total || r.report.Operations.Total < 12 {
				t.Errorf("schemathesis tested %d of greeter's %d operations, want all of at least 12", r.report.Operations.Tested, r.report.Operations.Total)
			}
			for _, e := range r.har {
				if e.Response.Status < 500 {
					continue
				}
				u, err := url.Parse(e.Request.URL)
				if err != nil {
					t.Errorf("the HAR report's URL %q: %v", e.Request.URL, err)
					continue
				}
				var problem struct {
					Detail string `json:"detail"`
				}
				_ = json.Unmarshal([]byte(e.Response.Content.Text), &problem)
				if e.Response.Status != 500 || !indexPath.MatchString(u.Path) || !missingIndex.MatchString(problem.Detail) {
					t.Errorf("%s %s: %d %s; the only 5xx greeter may answer is the 500 of a missing message index", e.Request.Method, e.Request.URL, e.Response.Status, e.Response.Content.Text)
				}
			}
		})
		for _, flavour := range springFlavours {
			t.Run(flavour, func(t *testing.T) {
				t.Parallel()
				app := startSpring(t, flavour)
				checkSearchPathAnswers(t, flavour, app.URL)
				r := runSchemathesis(t, st, flavour, app.URL)
				keep(r)
				if r.report.Operations.Total < 12 {
					t.Errorf("%s's document has %d operations, want at least 12", flavour, r.report.Operations.Total)
				}
				for _, f := range r.report.Failures {
					t.Logf("%s: %s %s: %s", flavour, f.Code, f.Title, strings.Join(f.Operations, ", "))
				}
			})
		}
	})

	version := ""
	for _, r := range runs {
		version = r.report.Version
	}
	var b strings.Builder
	fmt.Fprintf(&b, "schemathesis %s, seed %d, at most %d examples per operation and phase:\n", version, schemathesisSeed, schemathesisExamples)
	fmt.Fprintf(&b, "| Target | Operations tested | Examples | 5xx answers | Seconds | Failures by check |\n|---|---|---|---|---|---|\n")
	for _, target := range append([]string{"greeter"}, springFlavours...) {
		r, ok := runs[target]
		if !ok {
			fmt.Fprintf(&b, "| %s | not run | | | | |\n", target)
			continue
		}
		fmt.Fprintf(&b, "| %s | %d/%d | %d | %d | %.1f | %s |\n", target, r.report.Operations.Tested, r.report.Operations.Total,
			r.report.TestCases.Generated, r.serverErrors(), r.report.Seconds, r.failuresByCheck())
	}
	t.Log(b.String())
}

// checkSearchPathAnswers checks what testdata/schemathesis.toml says of
// /api/messages/search, where it turns two checks off: Spring MVC, and
// greeter's dispatcher after it, send PUT and DELETE of that path to the
// index's handlers, whose index does not convert (400), and OPTIONS lists
// their methods. Should either answer otherwise, the reason given there no
// longer holds.
func checkSearchPathAnswers(t *testing.T, target, base string) {
	t.Helper()
	client := &http.Client{Timeout: 30 * time.Second}
	do := func(method string) *http.Response {
		req, err := http.NewRequest(method, base+"/api/messages/search?param1=1", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %s /api/messages/search: %v", target, method, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	for _, method := range []string{"PUT", "DELETE"} {
		if resp := do(method); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %s /api/messages/search: %s, want 400 (the index's handler, as Spring MVC selects it)", target, method, resp.Status)
		}
	}
	resp := do("OPTIONS")
	var allow []string
	for _, m := range strings.Split(resp.Header.Get("Allow"), ",") {
		allow = append(allow, strings.TrimSpace(m))
	}
	slices.Sort(allow)
	if want := []string{"DELETE", "GET", "HEAD", "OPTIONS", "PUT"}; !slices.Equal(allow, want) {
		t.Errorf("%s: OPTIONS /api/messages/search: Allow %q, want %s", target, resp.Header.Get("Allow"), strings.Join(want, ", "))
	}
}
