package boot_test

// server.compression: which responses are gzipped, through Run and HTTP.

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/dispatch"
)

// zipper is a service with answers of every shape compression cares
// about: a large and a small JSON document, a large CSV (a type not in
// Spring's list), a list streamed by the dispatcher, and text a handler
// flushes in small pieces.
func zipper() boot.Service[struct{}] {
	return boot.Service[struct{}]{
		Name: "zipper",
		Start: func(_ context.Context, app *boot.App, _ struct{}) error {
			app.Routes(
				dispatch.Route{Method: "GET", Pattern: "/big", Handler: dispatch.Returns(func(*dispatch.Request) ([]greeting, error) {
					return greetings(200), nil
				})},
				dispatch.Route{Method: "GET", Pattern: "/small", Handler: dispatch.Returns(func(*dispatch.Request) (greeting, error) {
					return greeting{"Hello"}, nil
				})},
				dispatch.Route{Method: "GET", Pattern: "/csv", Produces: []string{"text/csv"}, Handler: dispatch.Plain(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					w.Header().Set("Content-Type", "text/csv")
					io.WriteString(w, strings.Repeat("a,b,c\n", 2000))
				}))},
				dispatch.Route{Method: "GET", Pattern: "/stream", Inputs: []dispatch.Input{streamLength}, Handler: dispatch.Streams(func(r *dispatch.Request) (dispatch.Stream[greeting], error) {
					return dispatch.Stream[greeting]{Items: func(yield func(greeting, error) bool) {
						for _, g := range greetings(int(streamLength.Get(r))) {
							if !yield(g, nil) {
								return
							}
						}
					}}, nil
				})},
				dispatch.Route{Method: "GET", Pattern: "/ticks", Produces: []string{"text/plain"}, Handler: dispatch.Plain(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					w.Header().Set("Content-Type", "text/plain")
					for i := range 20 {
						fmt.Fprintf(w, "%04d %s\n", i, strings.Repeat("x", 500))
						w.(http.Flusher).Flush()
					}
				}))},
			)
			return nil
		},
	}
}

// streamLength is how many greetings GET /stream?n= streams.
var streamLength = dispatch.Query[int32]("n")

// greetings are n greetings, about 30 bytes each in JSON.
func greetings(n int) []greeting {
	gs := make([]greeting, n)
	for i := range gs {
		gs[i] = greeting{fmt.Sprintf("Hello number %d", i)}
	}
	return gs
}

// gunzip decompresses body, failing the test when it is not gzip.
func gunzip(t *testing.T, body string) string {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(body))
	if err != nil {
		t.Fatalf("not gzip: %v (%.40q)", err, body)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("bad gzip: %v", err)
	}
	return string(b)
}

// plainBody is what path answers without compression, its reference.
func plainBody(t *testing.T, url string) string {
	t.Helper()
	r := send(t, nil, "GET", url, "", "Accept-Encoding: identity")
	if r.status != http.StatusOK || r.header.Get("Content-Encoding") != "" {
		t.Fatalf("GET %s identity: %d, Content-Encoding %q", url, r.status, r.header.Get("Content-Encoding"))
	}
	return r.body
}

// TestCompression asks for each of zipper's answers with and without
// gzip, with compression on, and checks which are compressed, that a
// compressed one decompresses to the very body sent uncompressed, and
// that Vary: Accept-Encoding comes with each answer that depends on it.
func TestCompression(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, zipper(), []string{"--server.compression.enabled=true",
		"--server.compression.excluded-user-agents=OldBrowser/.*,curl/7\\..*"}, nil)
	tests := []struct {
		name    string
		path    string
		headers []string
		gzipped bool
		vary    bool
	}{
		{"large JSON", "/big", []string{"Accept-Encoding: gzip, deflate, br"}, true, true},
		{"large JSON, gzip among weights", "/big", []string{"Accept-Encoding: br;q=1.0, gzip;q=0.5"}, true, true},
		{"large JSON, gzip refused by weight", "/big", []string{"Accept-Encoding: gzip;q=0, deflate"}, false, true},
		{"large JSON, no gzip accepted", "/big", []string{"Accept-Encoding: identity"}, false, true},
		{"large JSON, excluded agent", "/big", []string{"Accept-Encoding: gzip", "User-Agent: OldBrowser/1.0"}, false, true},
		{"large JSON, agent excluded by a second pattern", "/big", []string{"Accept-Encoding: gzip", "User-Agent: curl/7.88.1"}, false, true},
		{"large JSON, agent matching no whole pattern", "/big", []string{"Accept-Encoding: gzip", "User-Agent: curl/8.5.0"}, true, true},
		{"small JSON", "/small", []string{"Accept-Encoding: gzip"}, false, false},
		{"CSV, a type not listed", "/csv", []string{"Accept-Encoding: gzip"}, false, false},
		{"streamed list", "/stream?n=5000", []string{"Accept-Encoding: gzip"}, true, true},
		{"text flushed in pieces under the minimum", "/ticks", []string{"Accept-Encoding: gzip"}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := plainBody(t, s.URL+tt.path)
			r := send(t, nil, "GET", s.URL+tt.path, "", tt.headers...)
			if r.status != http.StatusOK {
				t.Fatalf("%d %s", r.status, r.body)
			}
			got := r.body
			if enc := r.header.Get("Content-Encoding"); tt.gzipped {
				if enc != "gzip" {
					t.Fatalf("Content-Encoding %q, want gzip", enc)
				}
				if len(got) >= len(want) {
					t.Errorf("compressed to %d bytes from %d", len(got), len(want))
				}
				got = gunzip(t, got)
			} else if enc != "" {
				t.Fatalf("Content-Encoding %q, want none", enc)
			}
			if got != want {
				t.Errorf("body differs from the uncompressed one: %d bytes, want %d", len(got), len(want))
			}
			if vary := strings.Join(r.header.Values("Vary"), ","); strings.Contains(vary, "Accept-Encoding") != tt.vary {
				t.Errorf("Vary %q, want Accept-Encoding: %v", vary, tt.vary)
			}
		})
	}
}

// TestCompressionMinimumSize: min-response-size moves the line. With
// 64KB, the large JSON document (about 6KB, its length known at once) is
// sent as it is, and so is a streamed list of about 45KB, written in a
// 32KB piece and the rest (held, then sent with its length); a list of
// about 150KB is compressed once 64KB of it are known. With 1KB, the CSV
// type added to the list, the CSV is compressed.
func TestCompressionMinimumSize(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, zipper(), []string{"--server.compression.enabled=true", "--server.compression.min-response-size=64KB",
		"--server.compression.mime-types=application/json,text/csv"}, nil)
	for _, path := range []string{"/big", "/stream?n=1500"} {
		r := send(t, nil, "GET", s.URL+path, "", "Accept-Encoding: gzip")
		if r.header.Get("Content-Encoding") != "" || r.header.Get("Content-Length") != fmt.Sprint(len(r.body)) || len(r.body) < 4<<10 || len(r.body) > 64<<10 {
			t.Errorf("GET %s: Content-Encoding %q, Content-Length %q, %d bytes; want it sent as it is, with its length", path,
				r.header.Get("Content-Encoding"), r.header.Get("Content-Length"), len(r.body))
		}
		if vary := strings.Join(r.header.Values("Vary"), ","); strings.Contains(vary, "Accept-Encoding") {
			t.Errorf("GET %s: Vary %q, though it is never compressed", path, vary)
		}
	}
	want := plainBody(t, s.URL+"/stream?n=5000")
	if r := send(t, nil, "GET", s.URL+"/stream?n=5000", "", "Accept-Encoding: gzip"); r.header.Get("Content-Encoding") != "gzip" || gunzip(t, r.body) != want {
		t.Errorf("GET /stream?n=5000 (%d bytes): Content-Encoding %q, want it gzipped", len(want), r.header.Get("Content-Encoding"))
	}
	if r := send(t, nil, "GET", s.URL+"/csv", "", "Accept-Encoding: gzip"); r.header.Get("Content-Encoding") != "" {
		t.Errorf("GET /csv (12000 bytes, under 64KB): Content-Encoding %q, want none", r.header.Get("Content-Encoding"))
	}
	s = boottest.Start(t, zipper(), []string{"--server.compression.enabled=true", "--server.compression.min-response-size=1KB",
		"--server.compression.mime-types=application/json,text/csv"}, nil)
	r := send(t, nil, "GET", s.URL+"/csv", "", "Accept-Encoding: gzip")
	if r.header.Get("Content-Encoding") != "gzip" || gunzip(t, r.body) != strings.Repeat("a,b,c\n", 2000) {
		t.Errorf("GET /csv: Content-Encoding %q, want the CSV gzipped", r.header.Get("Content-Encoding"))
	}
}

// TestCompressionOff: by default, as in Spring, nothing is compressed and
// no Vary is added.
func TestCompressionOff(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, zipper(), nil, nil)
	r := send(t, nil, "GET", s.URL+"/big", "", "Accept-Encoding: gzip")
	if r.header.Get("Content-Encoding") != "" || strings.Contains(strings.Join(r.header.Values("Vary"), ","), "Accept-Encoding") {
		t.Errorf("Content-Encoding %q, Vary %q; want neither", r.header.Get("Content-Encoding"), r.header.Values("Vary"))
	}
}

// TestCompressionLeavesPrometheusAlone: /actuator/prometheus gzips
// itself; compression must not gzip it a second time, on the service's
// port or on a management port of its own.
func TestCompressionLeavesPrometheusAlone(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"--management.server.port=0"}} {
		s := boottest.Start(t, zipper(), append([]string{"--server.compression.enabled=true",
			"--management.endpoints.web.exposure.include=health,prometheus"}, args...), nil)
		send(t, nil, "GET", s.URL+"/small", "") // a request, so that there are series
		r := send(t, nil, "GET", s.ManagementURL+"/actuator/prometheus", "", "Accept-Encoding: gzip")
		if enc := r.header.Values("Content-Encoding"); len(enc) != 1 || enc[0] != "gzip" {
			t.Fatalf("%v: Content-Encoding %q, want one gzip", args, enc)
		}
		if text := gunzip(t, r.body); !strings.Contains(text, "# HELP") {
			t.Errorf("%v: decompressed once, the exposition is not text: %.80q", args, text)
		}
	}
}

// TestCompressionOnTheManagementPort: a management port of its own takes
// server.compression, as Spring's management server takes the server's.
// The endpoints answer in Actuator's own type, which Spring's list leaves
// out, as it does here unless listed.
func TestCompressionOnTheManagementPort(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, zipper(), []string{"--server.compression.enabled=true", "--server.compression.min-response-size=1B",
		"--server.compression.mime-types=application/vnd.spring-boot.actuator.v3+json",
		"--management.server.port=0", "--management.endpoints.web.exposure.include=health,mappings"}, nil)
	r := send(t, nil, "GET", s.ManagementURL+"/actuator/mappings", "", "Accept-Encoding: gzip")
	if r.header.Get("Content-Encoding") != "gzip" || !strings.Contains(gunzip(t, r.body), "/big") {
		t.Errorf("GET /actuator/mappings: Content-Encoding %q, want gzip", r.header.Get("Content-Encoding"))
	}
}

// TestBadCompressionSettings: each bad value stops start-up, naming the
// setting and its value.
func TestBadCompressionSettings(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ arg, want string }{
		{"--server.compression.enabled=maybe", "server.compression.enabled"},
		{"--server.compression.min-response-size=2MB", "at most 1MB"},
		{"--server.compression.min-response-size=-1", "server.compression.min-response-size"},
		{"--server.compression.mime-types=json", `"json" is not one`},
		{"--server.compression.excluded-user-agents=Mozilla/(", "regular expressions"},
	} {
		stderr, err := boottest.FailToStart(t, zipper(), []string{"--server.compression.enabled=true", tt.arg}, nil)
		_, value, _ := strings.Cut(tt.arg, "=")
		if err == nil || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, value) {
			t.Errorf("%s: Run returned %v; stderr:\n%s\nwant %q and the value", tt.arg, err, stderr, tt.want)
		}
	}
	stderr, err := boottest.FailToStart(t, zipper(), []string{"--server.compression.enabled=true", "--server.compression.mime-types="}, nil)
	if err == nil || !strings.Contains(stderr, "at least one media type") {
		t.Errorf("an empty mime-types: Run returned %v; stderr:\n%s", err, stderr)
	}
}
