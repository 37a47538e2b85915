package conformance_test

// TestGeneratedClients generates greeter's clients from its /v3/api-docs
// with the generators its users run (oapi-codegen for Go, openapi-typescript
// with openapi-fetch for TypeScript, openapi-python-client for Python),
// builds each, and runs the program of testdata/clients/ in its language against
// the running greeter. The generators are test equipment that .ci/run
// installs, at the versions it pins, into one folder, which
// GREETER_TEST_CLIENTS names.

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// oapiRuntime is the version of github.com/oapi-codegen/runtime that the
// Go client is built with: the library oapi-codegen's code imports.
const oapiRuntime = "v1.9.0"

// clientTools is what GREETER_TEST_CLIENTS holds: .ci/run installs them.
var clientTools = []string{
	"bin/oapi-codegen",                     // go install …/oapi-codegen@v2.8.2 with GOBIN=bin
	"node_modules/.bin/openapi-typescript", // npm install --prefix
	"node_modules/.bin/tsc",
	"node_modules/openapi-fetch/package.json",
	"venv/bin/openapi-python-client", // a virtualenv
	"venv/bin/python",
}

// clientToolsDir returns the folder GREETER_TEST_CLIENTS names, after
// checking that it holds every generator and that node is on PATH.
// Without the variable the test is skipped, unless GREETER_TEST_SPRING=1
// (as in CI), which makes its absence a failure; a folder that lacks a
// tool always fails.
func clientToolsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("GREETER_TEST_CLIENTS")
	if dir == "" {
		const why = "GREETER_TEST_CLIENTS is unset: set it to the folder of the client generators (.ci/run installs them in ~/.cache/greeter-ci/clients)"
		if springRequired() {
			t.Fatal(why + ", and GREETER_TEST_SPRING=1")
		}
		t.Skip("generated clients test skipped: " + why)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range clientTools {
		if _, err := os.Stat(filepath.Join(dir, tool)); err != nil {
			t.Fatalf("GREETER_TEST_CLIENTS=%s has no %s (.ci/run installs it)", dir, tool)
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("no node on PATH, which runs the TypeScript client")
	}
	return dir
}

// TestGeneratedClients runs, for each language at once, a greeter of its
// own, generates the client from the document that greeter serves, and
// runs the language's program against it: hello, create, list, get and
// search, each answer checked (testdata/clients/go, ts and py).
func TestGeneratedClients(t *testing.T) {
	tools := clientToolsDir(t)
	for _, lang := range []struct {
		name string
		run  func(t *testing.T, tools, doc, base string)
	}{
		{"go", runGoClient},
		{"ts", runTypeScriptClient},
		{"py", runPythonClient},
	} {
		t.Run(lang.name, func(t *testing.T) {
			t.Parallel()
			base := startedGreeter(t)
			doc := filepath.Join(t.TempDir(), "openapi.json")
			if err := os.WriteFile(doc, apiDocs(t, base), 0o644); err != nil {
				t.Fatal(err)
			}
			lang.run(t, tools, doc, base)
		})
	}
}

// apiDocs is the document greeter serves at /v3/api-docs.
func apiDocs(t *testing.T, base string) []byte {
	t.Helper()
	resp, err := client.Get(base + "/v3/api-docs")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /v3/api-docs: %d %v\n%s", resp.StatusCode, err, body)
	}
	return body
}

// runGoClient generates the client with oapi-codegen in package main
// beside testdata/clients/go/main.go, in a module of its own that requires only
// oapi-codegen's runtime, builds it and runs it.
func runGoClient(t *testing.T, tools, doc, base string) {
	dir := t.TempDir()
	copyFile(t, filepath.Join("testdata", "clients", "go", "main.go"), filepath.Join(dir, "main.go"))
	t.Logf("oapi-codegen %s", lastLine(command(t, dir, nil, filepath.Join(tools, "bin", "oapi-codegen"), "--version")))
	command(t, dir, nil, filepath.Join(tools, "bin", "oapi-codegen"), "-generate", "types,client", "-package", "main", "-o", "client.gen.go", doc)
	gomod := "module greeterclient\n\ngo 1.26\n\nrequire github.com/oapi-codegen/runtime " + oapiRuntime + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	// Its own module, whatever the environment says of modules and workspaces.
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod"}
	command(t, dir, env, "go", "mod", "tidy")
	command(t, dir, env, "go", "build", "-tags", "generatedclient", "-o", "client", ".")
	command(t, dir, nil, filepath.Join(dir, "client"), base)
}

// runTypeScriptClient generates paths' types with openapi-typescript as
// schema.d.ts beside testdata/clients/ts/main.mts, compiles both with tsc (strict:
// a call the document does not allow is a compile error) and runs the
// result with node, openapi-fetch coming from the tools' node_modules.
func runTypeScriptClient(t *testing.T, tools, doc, base string) {
	dir := t.TempDir()
	for _, f := range []string{"main.mts", "tsconfig.json"} {
		copyFile(t, filepath.Join("testdata", "clients", "ts", f), filepath.Join(dir, f))
	}
	if err := os.Symlink(filepath.Join(tools, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tools, "node_modules", ".bin")
	t.Logf("openapi-typescript %s, tsc %s", lastLine(command(t, dir, nil, filepath.Join(bin, "openapi-typescript"), "--version")),
		lastLine(command(t, dir, nil, filepath.Join(bin, "tsc"), "--version")))
	command(t, dir, nil, filepath.Join(bin, "openapi-typescript"), doc, "-o", "schema.d.ts")
	command(t, dir, nil, filepath.Join(bin, "tsc"), "-p", dir)
	command(t, dir, nil, "node", filepath.Join(dir, "out", "main.mjs"), base)
}

// runPythonClient generates the package greeter_client with
// openapi-python-client, configured by testdata/clients/py/config.yaml, beside
// testdata/clients/py/main.py and runs that with the virtualenv's python (which has
// httpx and attrs, the client's dependencies, as the generator's own). It
// also checks that the configuration's workaround is still needed: without
// it, the generated client must fail to import.
func runPythonClient(t *testing.T, tools, doc, base string) {
	dir := t.TempDir()
	copyFile(t, filepath.Join("testdata", "clients", "py", "main.py"), filepath.Join(dir, "main.py"))
	config, err := filepath.Abs(filepath.Join("testdata", "clients", "py", "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	venv := filepath.Join(tools, "venv", "bin")
	// The generator formats its code with ruff, which it brings.
	env := []string{"PATH=" + venv + string(os.PathListSeparator) + os.Getenv("PATH")}
	generator, python := filepath.Join(venv, "openapi-python-client"), filepath.Join(venv, "python")
	t.Logf("%s", lastLine(command(t, dir, env, generator, "--version")))
	command(t, dir, env, generator, "generate", "--path", doc, "--output-path", filepath.Join(dir, "greeter_client"), "--meta", "none", "--config", config)
	command(t, dir, env, python, "main.py", base)

	bare := t.TempDir()
	command(t, bare, env, generator, "generate", "--path", doc, "--output-path", filepath.Join(bare, "greeter_client"), "--meta", "none")
	check := exec.Command(python, "-c", "import greeter_client.api.messages.post_api_messages")
	check.Dir = bare
	if out, err := check.CombinedOutput(); err == nil {
		t.Errorf("generated without testdata/clients/py/config.yaml, the client imports: remove the workaround for openapi-python-client's issue #1451 from config.yaml")
	} else if !strings.Contains(string(out), "NameError") {
		t.Errorf("generated without testdata/clients/py/config.yaml, the client fails to import otherwise than config.yaml says (NameError: Unset): %v\n%s", err, out)
	}
}

// command runs name with args in dir, with env added to the test's
// environment, and returns its output; it fails the test, showing the
// output, if the command fails or takes longer than five minutes.
func command(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return string(out)
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// lastLine is a version command's answer: its last line.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[len(lines)-1]
}
