package main

// A real Prometheus server for the tests of deploy/ (deploy_test.go): the
// binaries found or the test skipped, a server started on a free loopback
// port with storage of the test's own and killed when the test ends, and
// its HTTP API's queries.

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
)

// prometheusVar makes a missing prometheus or promtool fail the tests of
// deploy/ instead of skipping them; .ci/run sets it, as it installs both.
const prometheusVar = "GREETER_TEST_PROMETHEUS"

// prometheusTools returns the paths of prometheus and promtool (Debian's
// prometheus package has both). Without them the test is skipped, saying
// so, unless prometheusVar is 1: then it fails.
func prometheusTools(t *testing.T) (prometheus, promtool string) {
	t.Helper()
	prometheus, errServer := exec.LookPath("prometheus")
	promtool, errTool := exec.LookPath("promtool")
	if errServer == nil && errTool == nil {
		return prometheus, promtool
	}
	missing := fmt.Sprintf("prometheus: %v; promtool: %v", errServer, errTool)
	if os.Getenv(prometheusVar) == "1" {
		t.Fatalf("%s=1 but the Prometheus tools are missing (%s): install Debian's prometheus package", prometheusVar, missing)
	}
	t.Skipf("Prometheus test skipped: prometheus and promtool must be on PATH (Debian's prometheus package; %s). "+
		"%s=1, as .ci/run sets, makes their absence a failure", missing, prometheusVar)
	return "", ""
}

// promServer is a Prometheus server the test started.
type promServer struct {
	url    string // http://127.0.0.1:PORT
	output *boottest.Output
}

// startPrometheus runs the prometheus binary with config (prometheus.yml's
// text) on a free loopback port and a storage directory of the test's
// own, waits until it is ready, and kills it when the test ends (before
// the directory is removed).
func startPrometheus(t *testing.T, binary, config string, flags ...string) *promServer {
	t.Helper()
	dir := t.TempDir()
	configFile := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(configFile, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := freeLoopbackAddr(t)
	s := &promServer{url: "http://" + addr, output: &boottest.Output{}}
	cmd := exec.Command(binary, append([]string{
		"--config.file=" + configFile,
		"--storage.tsdb.path=" + filepath.Join(dir, "data"),
		"--web.listen-address=" + addr,
		"--log.level=warn"}, flags...)...)
	cmd.Stdout, cmd.Stderr = s.output, s.output
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", binary, err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	ready := boottest.Poll(func() bool {
		select {
		case <-exited:
			return true
		default:
		}
		resp, err := http.Get(s.url + "/-/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	select {
	case <-exited:
		t.Fatalf("prometheus exited before it was ready (%v):\n%s", cmd.ProcessState, s.output)
	default:
	}
	if !ready {
		t.Fatalf("prometheus was not ready within %v:\n%s", boottest.Timeout, s.output)
	}
	return s
}

// freeLoopbackAddr returns 127.0.0.1:PORT with a port that was free a
// moment ago, for a program that must be told its port: Prometheus does
// not say which port 0 gave it.
func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return "127.0.0.1:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// get calls the server's HTTP API at path with the query parameters and
// decodes the data of a successful answer into data; any other answer is
// an error, with Prometheus's own message (a PromQL syntax error, say).
func (s *promServer) get(path string, params url.Values, data any) error {
	resp, err := http.Get(s.url + path + "?" + params.Encode())
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var answer struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return fmt.Errorf("%s answered %d, not JSON: %.300s", path, resp.StatusCode, body)
	}
	if answer.Status != "success" {
		return fmt.Errorf("%s answered %d: %s", path, resp.StatusCode, answer.Error)
	}
	return json.Unmarshal(answer.Data, data)
}

// sample is one series of an instant query's answer.
type sample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"` // [time, "value"]
}

// positive reports whether the sample's value is a number above 0.
func (s sample) positive() bool {
	v, ok := s.Value[1].(string)
	f, err := strconv.ParseFloat(v, 64)
	return ok && err == nil && f > 0
}

// query runs an instant query now and returns the series it found. A
// scalar or a string answer, which has no series, is one sample with no
// labels.
func (s *promServer) query(expr string) ([]sample, error) {
	var data struct {
		ResultType string          `json:"resultType"`
		Result     json.RawMessage `json:"result"`
	}
	params := url.Values{"query": {expr}, "time": {strconv.FormatInt(time.Now().Unix(), 10)}}
	if err := s.get("/api/v1/query", params, &data); err != nil {
		return nil, err
	}
	if data.ResultType != "vector" {
		var v [2]any
		if err := json.Unmarshal(data.Result, &v); err != nil {
			return nil, fmt.Errorf("a %s answer: %v", data.ResultType, err)
		}
		return []sample{{Value: v}}, nil
	}
	var series []sample
	err := json.Unmarshal(data.Result, &series)
	return series, err
}

// labelValues returns the values of label on the series that match
// selector: what a Grafana variable label_values(selector, label) offers.
func (s *promServer) labelValues(label, selector string) ([]string, error) {
	var values []string
	params := url.Values{"match[]": {selector}}
	err := s.get("/api/v1/label/"+url.PathEscape(label)+"/values", params, &values)
	return values, err
}

// rule is one loaded rule, as /api/v1/rules reports it.
type rule struct {
	Name      string `json:"name"`
	Type      string `json:"type"`   // alerting or recording
	Health    string `json:"health"` // ok, err, or unknown before its first evaluation
	LastError string `json:"lastError"`
}

// rules returns every rule the server has loaded, of every group.
func (s *promServer) rules() ([]rule, error) {
	var data struct {
		Groups []struct {
			Rules []rule `json:"rules"`
		} `json:"groups"`
	}
	if err := s.get("/api/v1/rules", nil, &data); err != nil {
		return nil, err
	}
	var all []rule
	for _, g := range data.Groups {
		all = append(all, g.Rules...)
	}
	return all, nil
}

// exemplar is one exemplar of /api/v1/query_exemplars.
type exemplar struct {
	Labels map[string]string `json:"labels"`
	Value  string            `json:"value"`
}

// exemplars returns the exemplars Prometheus stored for the series of
// expr over the last minute, by the series' labels.
func (s *promServer) exemplars(expr string) ([]exemplar, error) {
	var data []struct {
		SeriesLabels map[string]string `json:"seriesLabels"`
		Exemplars    []exemplar        `json:"exemplars"`
	}
	now := time.Now()
	params := url.Values{"query": {expr}, "start": {strconv.FormatInt(now.Add(-time.Minute).Unix(), 10)},
		"end": {strconv.FormatInt(now.Add(time.Second).Unix(), 10)}}
	if err := s.get("/api/v1/query_exemplars", params, &data); err != nil {
		return nil, err
	}
	var all []exemplar
	for _, d := range data {
		all = append(all, d.Exemplars...)
	}
	return all, nil
}
