package boot_test

// Clients that go away in the middle of an answer (issue 38, point 6): a
// scraper that drops /actuator/prometheus, a client that drops a long
// list, over HTTP/1.1 and HTTP/2, identity and gzip. Nothing is wrong
// with the service then, so each aborted answer logs one line at most,
// at DEBUG, and none at the default INFO; a failure of the service's own
// is logged as before.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/metrics"
)

// holdPoint stops the one request the test arms it for until the test
// has dropped that request's client, so that the answer is written to a
// client that is gone, whatever the timing.
type holdPoint struct {
	armed atomic.Bool
	held  chan chan struct{} // the request gives the test what releases it
}

func (h *holdPoint) wait() {
	if h.armed.CompareAndSwap(true, false) {
		release := make(chan struct{})
		h.held <- release
		<-release
	}
}

// bulkItem is one element of the long lists.
type bulkItem struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

// goneFamilies is how many gauge families /actuator/prometheus has beside
// the framework's: a registry as large as a service with many routes.
const goneFamilies = 300

// bulky is a service of long answers: GET /stream (a Stream of about
// 2 MB), GET /whole (a list of about 1 MB written at once),
// /actuator/prometheus with goneFamilies more families, each waiting at
// hold when the test asks; GET /broken fails, and with broken set a
// collector cannot be gathered: the service's own failures.
func bulky(hold *holdPoint, broken *atomic.Bool) boot.Service[struct{}] {
	pad := strings.Repeat("x", 200)
	return boot.Service[struct{}]{
		Name: "bulky",
		Bind: func(*config.Binder) struct{} { return struct{}{} },
		Start: func(_ context.Context, app *boot.App, _ struct{}) error {
			app.Gauges(func() []metrics.Gauge {
				hold.wait()
				g := make([]metrics.Gauge, goneFamilies)
				for i := range g {
					g[i] = metrics.Gauge{Name: fmt.Sprintf("bulky_gauge_%d", i), Help: pad, Value: float64(i)}
				}
				return g
			})
			if err := app.MetricsRegisterer().Register(brokenCollector{broken}); err != nil {
				return err
			}
			app.Routes(
				dispatch.Route{Method: "GET", Pattern: "/stream", Handler: dispatch.Streams(func(*dispatch.Request) (dispatch.Stream[bulkItem], error) {
					hold.wait()
					return dispatch.Stream[bulkItem]{Items: func(yield func(bulkItem, error) bool) {
						for i := range 10000 {
							if !yield(bulkItem{i, pad}, nil) {
								return
							}
						}
					}}, nil
				})},
				dispatch.Route{Method: "GET", Pattern: "/whole", Handler: dispatch.Returns(func(*dispatch.Request) ([]bulkItem, error) {
					hold.wait()
					l := make([]bulkItem, 5000)
					for i := range l {
						l[i] = bulkItem{i, pad}
					}
					return l, nil
				})},
				dispatch.Route{Method: "GET", Pattern: "/broken", Handler: dispatch.Runs(func(*dispatch.Request) error { return errFailed })},
			)
			return nil
		},
	}
}

// brokenCollector is a collector that cannot be gathered while broken
// is set: a failure of the service's, which a scrape logs.
type brokenCollector struct{ broken *atomic.Bool }

func (brokenCollector) Describe(chan<- *prometheus.Desc) {}

func (c brokenCollector) Collect(ch chan<- prometheus.Metric) {
	if c.broken.Load() {
		ch <- prometheus.NewInvalidMetric(prometheus.NewDesc("bulky_broken", "A collector that fails.", nil, nil), errFailed)
	}
}

// filteredScrape is /actuator/prometheus filtered by name[] to every
// gauge of bulky: a scrape that renders for itself.
func filteredScrape() string {
	names := make([]string, goneFamilies)
	for i := range names {
		names[i] = fmt.Sprintf("name[]=bulky_gauge_%d", i)
	}
	return "/actuator/prometheus?" + strings.Join(names, "&")
}

// dropHTTP1 sends GET path over HTTP/1.1 and, once the handler holds,
// resets the connection (a linger of 0: an RST, not a FIN) before
// releasing it.
func dropHTTP1(t *testing.T, addr string, hold *holdPoint, path, id string, gzip bool) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	req := "GET " + path + " HTTP/1.1\r\nHost: bulky\r\nX-Request-Id: " + id + "\r\n"
	if gzip {
		req += "Accept-Encoding: gzip\r\n"
	}
	if _, err := io.WriteString(c, req+"\r\n"); err != nil {
		t.Fatal(err)
	}
	release := <-hold.held
	c.(*net.TCPConn).SetLinger(0)
	c.Close()
	close(release)
}

// dropHTTP2 sends GET path over h2c and, once the handler holds, cancels
// the stream (RST_STREAM) or, with wholeConnection, resets the
// connection, before releasing it. The stream's cancelling is known to
// the server before the release: a PING sent after it is answered.
func dropHTTP2(t *testing.T, addr string, hold *holdPoint, path, id string, wholeConnection bool) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, http2.ClientPreface)
	fr := http2.NewFramer(c, c)
	fr.WriteSettings()
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", "bulky"}, {":path", path},
		{"accept-encoding", "gzip"}, {"x-request-id", id}} {
		enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block.Bytes(), EndStream: true, EndHeaders: true}); err != nil {
		t.Fatal(err)
	}
	release := <-hold.held
	if wholeConnection {
		c.(*net.TCPConn).SetLinger(0)
		c.Close()
		close(release)
		return
	}
	fr.WriteRSTStream(1, http2.ErrCodeCancel)
	fr.WritePing(false, [8]byte{'g', 'o', 'n', 'e'})
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatalf("h2c: %v before the PING's answer", err)
		}
		if p, ok := f.(*http2.PingFrame); ok && p.IsAck() {
			break
		}
	}
	close(release)
}

// TestClientGoneLogsQuietly: every way a client can leave mid-answer
// logs one line at most, at DEBUG, with DEBUG on; and none at the default
// level. The access log (on here, to know when each answer has ended)
// writes its line for each as for any request, and is not counted. A
// route that fails, and a collector that cannot be gathered, are still
// logged at ERROR and WARN.
func TestClientGoneLogsQuietly(t *testing.T) {
	t.Parallel()
	for _, level := range []string{"DEBUG", "INFO"} {
		t.Run(level, func(t *testing.T) {
			t.Parallel()
			hold, broken := &holdPoint{held: make(chan chan struct{})}, &atomic.Bool{}
			s := boottest.Start(t, bulky(hold, broken), []string{exposeAll, "--logging.level.root=" + level,
				"--server.access-log.enabled=true", "--server.http2.enabled=true", "--server.compression.enabled=true"}, nil)
			n := 0
			// answered waits for the access log's line of the request
			// id, and returns the lines logged since mark but those of
			// the access log.
			answered := func(mark int, id string) []string {
				s.WaitForLog(t, regexp.MustCompile(`msg=request .* request_id=`+id+` logger=bulky.accesslog\n`))
				var lines []string
				for l := range strings.Lines(s.Stdout.String()[mark:]) {
					if !strings.Contains(l, " msg=request ") {
						lines = append(lines, strings.TrimSpace(l))
					}
				}
				return lines
			}
			check := func(what string, drop func(id string)) {
				n++
				id := fmt.Sprintf("gone-%d", n)
				mark := len(s.Stdout.String())
				hold.armed.Store(true)
				drop(id)
				lines := answered(mark, id)
				switch {
				case level == "INFO" && len(lines) > 0:
					t.Errorf("%s: at INFO, logged %d lines, want none:\n%s", what, len(lines), strings.Join(lines[:min(len(lines), 3)], "\n"))
				case len(lines) > 1 || len(lines) == 1 && !strings.Contains(lines[0], " level=DEBUG "):
					t.Errorf("%s: logged %d lines, want one at DEBUG at most:\n%s", what, len(lines), strings.Join(lines[:min(len(lines), 3)], "\n"))
				}
			}
			for _, path := range []string{"/actuator/prometheus", filteredScrape(), "/stream", "/whole"} {
				what := strings.Split(path, "&")[0]
				for _, gzip := range []bool{false, true} {
					check(fmt.Sprintf("HTTP/1.1 %s, gzip %v, connection reset", what, gzip), func(id string) {
						dropHTTP1(t, s.Addr(), hold, path, id, gzip)
					})
				}
				check("HTTP/2 "+what+", stream cancelled", func(id string) { dropHTTP2(t, s.Addr(), hold, path, id, false) })
				check("HTTP/2 "+what+", connection reset", func(id string) { dropHTTP2(t, s.Addr(), hold, path, id, true) })
			}

			// The service's own failures are logged as before.
			mark := len(s.Stdout.String())
			send(t, nil, "GET", s.URL+"/broken", "", "X-Request-Id: broken-route")
			if lines := answered(mark, "broken-route"); len(lines) != 1 || !strings.Contains(lines[0], `level=ERROR msg="request failed"`) {
				t.Errorf("GET /broken logged %q, want its ERROR line", lines)
			}
			broken.Store(true)
			mark = len(s.Stdout.String())
			send(t, nil, "GET", s.URL+"/actuator/prometheus", "", "X-Request-Id: broken-scrape")
			if lines := answered(mark, "broken-scrape"); len(lines) != 1 || !strings.Contains(lines[0], `level=WARN msg="a scrape of /actuator/prometheus left metrics out"`) {
				t.Errorf("a scrape with a collector that fails logged %q, want its WARN line", lines)
			}
		})
	}
}
