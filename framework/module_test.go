package framework_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// helloService is the README's service in nine lines, as a user writes it
// in a module of their own.
const helloService = `package main

import (
	"context"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

var hello = boot.Service[string]{Name: "hello",
	Bind: func(b *config.Binder) string { return config.Bind(b, "hello.greeting", "Hello!", config.String, "what GET /hello answers") },
	Start: func(ctx context.Context, app *boot.App, greeting string) error {
		app.Routes(dispatch.Route{Method: "GET", Pattern: "/hello",
			Handler: dispatch.Returns(func(*dispatch.Request) (string, error) { return greeting, nil })})
		return nil
	},
}

func main() { boot.Main(hello) }
`

// TestServiceInAModuleOfItsOwn follows docs/framework.md's "A service in
// its own module" as a new user would: a fresh module outside the
// repository, the framework required and replaced by this checkout (an
// unpublished version), go mod tidy, a build and a start. The module's
// requirements must hold none of the modules only greeter uses.
func TestServiceInAModuleOfItsOwn(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(helloService), 0o644); err != nil {
		t.Fatal(err)
	}
	// The checkout's go.sum, so that tidy finds the sums of the versions
	// it already uses without asking the checksum database.
	sums, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sums, 0o644); err != nil {
		t.Fatal(err)
	}
	goCmd(t, dir, "mod", "init", "example.com/hello")
	goCmd(t, dir, "mod", "edit", "-require="+module+"@v0.0.0", "-replace="+module+"="+root)
	goCmd(t, dir, "mod", "tidy")

	var mod struct{ Require []struct{ Path string } }
	if err := json.Unmarshal([]byte(goCmd(t, dir, "mod", "edit", "-json")), &mod); err != nil {
		t.Fatal(err)
	}
	greeterOnly := greeterOnlyModules(t, root)
	if len(greeterOnly) == 0 {
		t.Fatal("found no module that only greeter uses; the computation is wrong (goose at least, which greeter's tests migrate with as greeter did before Flyway's format)")
	}
	for _, r := range mod.Require {
		if slices.Contains(greeterOnly, r.Path) {
			t.Errorf("the service's module requires %s, which only greeter uses", r.Path)
		}
	}
	t.Logf("the service's module requires %d modules; greeter alone uses %v", len(mod.Require), greeterOnly)

	// What the optional subsystems bring in is linked only through their
	// starters, which this service does not name.
	linked := strings.Fields(goCmd(t, dir, "list", "-deps", "-f", "{{.ImportPath}}", "."))
	for packages, starter := range starterPackages {
		if i := slices.IndexFunc(linked, func(p string) bool { return p == packages || strings.HasPrefix(p, packages+"/") }); i >= 0 {
			t.Errorf("the service links %s, though it does not name the starter that brings it in (%s)", linked[i], starter)
		}
	}

	bin := filepath.Join(dir, "hello")
	goCmd(t, dir, "build", "-o", bin, ".")
	url := startBinary(t, bin, "--server.port=0")
	resp, err := http.Get(url + "/hello")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "Hello!" {
		t.Errorf("GET /hello: %d %q, want 200 Hello!", resp.StatusCode, body)
	}
}

// starterPackages are the packages (and those under them) that only a
// starter brings in, with the starter: a service that does not name the
// starter must not link them. golang.org/x/crypto comes with the user's
// starter (bcrypt, argon2) and with PKCS#12's (PBKDF2).
var starterPackages = map[string]string{
	"github.com/redis/go-redis/v9":       "framework/starter/redissession",
	"golang.org/x/crypto":                "framework/starter/securitybasic, framework/starter/pkcs12",
	"software.sslmate.com/src/go-pkcs12": "framework/starter/pkcs12",
	"github.com/lestrrat-go/jwx/v3":      "framework/starter/securityjwt",
	"github.com/jackc/pgx/v5":            "framework/starter/datasource",

	// The OTLP metrics exporter is the framework's own package, linked
	// only through its starter.
	"github.com/springport/greeter/framework/management/metrics/otlp": "framework/starter/otlpmetrics",
	"google.golang.org/grpc": "framework/starter/otlptracinggrpc",
}

// greeterOnlyModules lists the modules that greeter's own packages build
// with, their tests included, and no framework package, nor its tests,
// does.
func greeterOnlyModules(t *testing.T, root string) []string {
	t.Helper()
	modules := func(patterns ...string) []string {
		args := append([]string{"list", "-deps", "-test", "-f", "{{with .Module}}{{.Path}}{{end}}"}, patterns...)
		out := goCmd(t, root, args...)
		return slices.Compact(slices.Sorted(slices.Values(strings.Fields(out))))
	}
	framework := modules("./framework/...")
	var only []string
	for _, m := range modules("./cmd/greeter", "./api/...", "./domain/...", "./messagestore/...") {
		if m != module && !slices.Contains(framework, m) {
			only = append(only, m)
		}
	}
	return only
}

// goCmd runs the go command in dir and returns its output, failing the
// test with it when it fails. GOFLAGS and GOWORK are the defaults, so
// that the user's module is read as a user's would be.
func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// started is the log line that names the port the service listens on
// (boottest.StartedAddr, which this module-less test does not import).
var started = regexp.MustCompile(`Started \S+ in [0-9.]+ seconds \(process running for [0-9.]+\).*? addr=\S*:(\d+)`)

// startBinary runs bin with args until the test ends, and returns the URL
// of the port its "started" log line names.
func startBinary(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = t.TempDir() // no settings files beside it
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	port := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			if m := started.FindStringSubmatch(lines.Text()); m != nil {
				port <- m[1]
				break
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	select {
	case p := <-port:
		return "http://127.0.0.1:" + p
	case <-time.After(time.Minute):
		t.Fatal("the service did not log that it started within a minute")
		return ""
	}
}
