package conformance_test

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// update rewrites the generated part of docs/side-by-side.md (the
// differences between Spring Boot 4 and 3.5) from what the run saw.
var update = flag.Bool("update", false, "rewrite docs/side-by-side.md's list of differences between Spring Boot 4 and 3.5")

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if greeterBuildDir != "" {
		_ = os.RemoveAll(greeterBuildDir)
	}
	os.Exit(code)
}

// fleet is one setup's applications: greeter and each Spring build,
// started with the same settings.
type fleet struct {
	setup   string
	greeter *app
	spring  map[string]*app // by flavour
	tokens  map[string]string
	clients map[*app]*http.Client // each with a cookie jar of its own
}

// startFleet starts greeter and both Spring builds at once with the
// setup's settings, and waits until all listen.
func startFleet(t *testing.T, name string) *fleet {
	t.Helper()
	for _, fl := range springFlavours {
		needSpring(t, fl)
	}
	s := setups[name](t)
	f := &fleet{setup: name, spring: map[string]*app{}, tokens: s.tokens}
	args := func(app string) []string {
		if s.own == nil {
			return s.args
		}
		return append(slices.Clone(s.args), s.own(app)...)
	}
	f.greeter = launchGreeter(t, args("greeter")...)
	for _, fl := range springFlavours {
		f.spring[fl] = launchSpring(t, fl, args(fl)...)
	}
	f.clients = map[*app]*http.Client{}
	for _, a := range f.apps() {
		jar, err := cookiejar.New(nil)
		if err != nil {
			t.Fatal(err)
		}
		c := *client
		c.Jar = jar
		f.clients[a] = &c
	}
	f.greeter.waitListening(t)
	for _, fl := range springFlavours {
		f.spring[fl].waitListening(t)
		t.Logf("%s: %s listened %v after exec", name, fl, f.spring[fl].Started.Round(100e6))
	}
	return f
}

// apps are greeter, then the Spring builds in springFlavours' order.
func (f *fleet) apps() []*app {
	apps := []*app{f.greeter}
	for _, fl := range springFlavours {
		apps = append(apps, f.spring[fl])
	}
	return apps
}

// TestSideBySide sends the corpus to greeter and to Spring Boot 4 and 3.5,
// each setup's three applications started with the same settings, and
// compares the answers (then, in the plain setup, the management
// endpoints and the Prometheus series). Every difference from a Spring
// build is listed in differences.txt, and every entry there still
// occurs; the differences between the two Spring builds are the list in
// docs/side-by-side.md.
func TestSideBySide(t *testing.T) {
	cases, err := readCorpus(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	l, err := newLedger(differencesFile)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu       sync.Mutex
		versions []difference // boot4 against boot35
		compared int          // setups whose applications all ran
	)
	var order []string
	bySetup := map[string][]exchange{}
	for _, c := range cases {
		if _, ok := bySetup[c.Setup]; !ok {
			order = append(order, c.Setup)
		}
		bySetup[c.Setup] = append(bySetup[c.Setup], c)
	}
	for _, name := range order {
		if setups[name] == nil {
			t.Fatalf("%s: cases of setup %q, which sidebyside_test.go does not define", corpusFile, name)
		}
	}
	t.Run("setup", func(t *testing.T) {
		for _, name := range order {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				f := startFleet(t, name)
				vs := f.run(t, bySetup[name], l)
				if name == "plain" {
					// After the corpus's traffic: the management
					// endpoints and the metrics it made.
					vs = append(vs, f.compareManagement(t, l)...)
				}
				mu.Lock()
				versions = append(versions, vs...)
				compared++
				mu.Unlock()
			})
		}
	})
	if t.Failed() {
		return
	}
	for _, e := range l.stale() {
		t.Errorf("%s:%d: %s lists a difference that no longer occurs; remove it:\n\t%s\n\t\t%s", differencesFile, e.Line, differencesFile, e, e.Reason)
	}
	if compared < len(order) {
		t.Logf("%d of %d setups ran (-run, or an engine missing): %s is not checked", compared, len(order), versionsDoc)
		return
	}
	checkVersionsDoc(t, versions)
}

// run sends the cases to each application (sendAll), checks greeter's
// differences from each Spring build against the ledger, and returns
// Spring Boot 4's differences from 3.5.
func (f *fleet) run(t *testing.T, cases []exchange, l *ledger) (versions []difference) {
	t.Helper()
	answers := f.sendAll(t, cases)
	names := make([]string, len(cases))
	for i, c := range cases {
		names[i] = c.Name
	}
	for k, fl := range springFlavours {
		var ds []difference
		for i, c := range cases {
			ds = append(ds, compareAnswers(c, answers[0][i], answers[k+1][i])...)
		}
		l.ranCases(fl, names)
		l.check(t, fl, ds)
	}
	for i, c := range cases {
		versions = append(versions, compareAnswers(c, answers[1][i], answers[2][i])...)
	}
	return versions
}

// sendAll sends the cases to each application in order (the
// applications at once, each one's cases one after another) and returns
// the answers, in the order of apps: greeter's, then each Spring build's.
func (f *fleet) sendAll(t *testing.T, cases []exchange) [][]answer {
	t.Helper()
	apps := f.apps()
	answers := make([][]answer, len(apps))
	errs := make([]error, len(apps))
	var wg sync.WaitGroup
	for i, a := range apps {
		wg.Go(func() {
			for _, c := range cases {
				ans, err := f.send(a, c)
				if err != nil {
					where := ""
					if c.Line > 0 {
						where = fmt.Sprintf("%s:%d: ", corpusFile, c.Line)
					}
					errs[i] = fmt.Errorf("%scase %s against %s: %v", where, c.Name, a.name, err)
					return
				}
				answers[i] = append(answers[i], ans)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return answers
}

// send sends one case to a, with the setup's tokens in place of
// {token:NAME}, and reads the answer, its address written {host}.
func (f *fleet) send(a *app, c exchange) (answer, error) {
	var body io.Reader
	if c.Body != "" {
		body = strings.NewReader(c.Body)
	}
	req, err := http.NewRequest(c.Method, a.URL+c.Target, body)
	if err != nil {
		return answer{}, err
	}
	for _, h := range c.Header {
		v := h[1]
		for name, tok := range f.tokens {
			v = strings.ReplaceAll(v, "{token:"+name+"}", tok)
		}
		if strings.Contains(v, "{token:") {
			return answer{}, fmt.Errorf("header %s names a token that setup %s does not sign: %s", h[0], f.setup, v)
		}
		req.Header.Add(h[0], v)
	}
	resp, err := f.clients[a].Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return answer{}, err
	}
	host := strings.TrimPrefix(a.URL, "http://")
	h := http.Header{}
	for k, vs := range resp.Header {
		for _, v := range vs {
			h.Add(k, strings.ReplaceAll(v, host, "{host}"))
		}
	}
	return answer{Status: resp.StatusCode, Header: h, Body: bytes.ReplaceAll(b, []byte(host), []byte("{host}"))}, nil
}

// The generated part of docs/side-by-side.md: Spring Boot 4's answers
// where they differ from 3.5's.
const (
	versionsDoc   = "../docs/side-by-side.md"
	versionsBegin = "<!-- versions: generated by go test ./conformance -update; do not edit -->"
	versionsEnd   = "<!-- end of versions -->"
)

// checkVersionsDoc compares the doc's list with the differences seen, or
// rewrites it with -update. The list has a row for each aspect and pair
// of answers, with the cases that showed it.
func checkVersionsDoc(t *testing.T, versions []difference) {
	t.Helper()
	type row struct{ aspect, boot4, boot35 string }
	cases := map[row][]string{}
	var rows []row
	for _, d := range versions {
		r := row{d.Aspect, timestamps.ReplaceAllString(d.Greeter, "{time}"), timestamps.ReplaceAllString(d.Spring, "{time}")}
		if cases[r] == nil {
			rows = append(rows, r)
		}
		if !slices.Contains(cases[r], d.Case) {
			cases[r] = append(cases[r], d.Case)
		}
	}
	slices.SortFunc(rows, func(a, b row) int {
		return strings.Compare(a.aspect+"\x00"+a.boot4+"\x00"+a.boot35, b.aspect+"\x00"+b.boot4+"\x00"+b.boot35)
	})
	var b strings.Builder
	b.WriteString(versionsBegin + "\n\n| Aspect | Spring Boot 4 | Spring Boot 3.5 | Cases |\n|---|---|---|---|\n")
	for _, r := range rows {
		cs := cases[r]
		slices.Sort(cs)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", r.aspect, cell(r.boot4), cell(r.boot35), strings.Join(cs, ", "))
	}
	b.WriteString("\n" + versionsEnd)
	doc, err := os.ReadFile(versionsDoc)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(doc), versionsBegin)
	_, after, ok2 := strings.Cut(rest, versionsEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no %q ... %q section", versionsDoc, versionsBegin, versionsEnd)
	}
	want := before + b.String() + after
	if want == string(doc) {
		return
	}
	if *update {
		if err := os.WriteFile(versionsDoc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s's differences between Spring Boot 4 and 3.5", versionsDoc)
		return
	}
	t.Errorf("%s's list of differences between Spring Boot 4 and 3.5 is not what this run saw; go test ./conformance -run TestSideBySide -update rewrites it. This run:\n%s", versionsDoc, b.String())
}

// timestamps, in the list of version differences, are written {time}:
// a token's expiry, an error body's timestamp.
var timestamps = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)

// cell shows a value in a Markdown table cell, cut at 240 characters.
func cell(s string) string {
	if len(s) > 240 {
		s = s[:240] + "..."
	}
	s = strings.ReplaceAll(s, "|", `\|`)
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}
