package main

// Tests that the OpenAPI document and Swagger UI work in the tools their
// users run: Redocly's linter, and a browser. Each tool is found through
// a variable (.ci/run installs both and sets it); without it the test is
// skipped and says which variable runs it.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/springport/greeter/framework/testing/polltest"
)

// tool returns the path that the variable name gives, or skips the test.
func tool(t *testing.T, variable, what string) string {
	t.Helper()
	path := os.Getenv(variable)
	if path == "" {
		t.Skipf("%s test skipped: set %s to its executable to run it (.ci/run installs it)", what, variable)
	}
	return path
}

// TestOpenAPIDocumentPassesRedocly lints the served document with
// Redocly's recommended ruleset: no error and no warning.
func TestOpenAPIDocumentPassesRedocly(t *testing.T) {
	redocly := tool(t, "GREETER_TEST_REDOCLY", "Redocly CLI")
	s := start(t, nil, nil)
	doc := filepath.Join(t.TempDir(), "openapi.yaml")
	if err := os.WriteFile(doc, []byte(s.do(t, "GET", "/v3/api-docs.yaml", "").body), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, redocly, "lint", "--extends=recommended", "--max-problems=100", doc)
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Your API description is valid") || strings.Contains(string(out), "Warning was generated") {
		t.Fatalf("redocly lint: %v\n%s", err, out)
	}
}

// TestSwaggerUI opens /swagger-ui.html in headless Chromium and checks
// that Swagger UI rendered the service's operations from its document;
// the screenshot is kept in the test's artifact directory (go test
// -artifacts keeps it), and its path is logged.
func TestSwaggerUI(t *testing.T) {
	chromium := tool(t, "GREETER_TEST_CHROMIUM", "Chromium")
	if r := start(t, nil, nil).do(t, "GET", "/swagger-ui.html", ""); r.status != 404 {
		t.Errorf("with app.openapi.ui.enabled unset, /swagger-ui.html answers %d, want 404", r.status)
	}
	s := start(t, []string{"--app.openapi.ui.enabled=true"}, nil)
	browse := func(args ...string) string { return chromiumPage(t, chromium, s.base+"/swagger-ui.html", args...) }
	dom := browse("--dump-dom")
	for _, want := range []string{`class="swagger-ui"`, "greeter", "/api/messages/{index}", "Append a message", "opblock-tag"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered page lacks %q: Swagger UI did not render the document", want)
		}
	}
	shot := filepath.Join(t.ArtifactDir(), "swagger-ui.png")
	browse("--screenshot=" + shot)
	info, err := os.Stat(shot)
	if err != nil || info.Size() < 10_000 {
		t.Fatalf("no screenshot of the page: %v", err)
	}
	t.Logf("screenshot of Swagger UI (%d bytes): %s", info.Size(), shot)
	if strings.Contains(dom, "btn authorize") {
		t.Errorf("Swagger UI offers to authorize, with security off")
	}
}

// TestSwaggerUIAuthorize: with a user, Swagger UI (left open by
// app.security.permit-all) renders its Authorize button from the
// document's securitySchemes, and a locked padlock on each operation
// that needs credentials.
func TestSwaggerUIAuthorize(t *testing.T) {
	chromium := tool(t, "GREETER_TEST_CHROMIUM", "Chromium")
	s := start(t, []string{"--app.openapi.ui.enabled=true", "--app.security.user.name=ops", "--app.security.user.password={noop}secret",
		"--app.security.permit-all=/swagger-ui.html,/swagger-ui/**,/v3/api-docs/**,/api/hello", "--server.access-log.enabled=true"}, nil)
	dom := chromiumPage(t, chromium, s.base+"/swagger-ui.html", "--dump-dom")
	for _, want := range []string{"btn authorize", "authorization__btn", "/api/messages/{index}"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered page lacks %q: Swagger UI offers no authorization", want)
		}
	}

	// Then as a user would: authorize in the dialog, then Try it out on
	// GET /api/messages, which needs the user. (Not before authorizing:
	// a 401 with WWW-Authenticate: Basic makes the browser ask for a
	// password itself, which a headless one waits on for ever.)
	b := newBrowser(t, chromium)
	b.navigate(s.base + "/swagger-ui.html")
	polltest.Until(t, time.Minute, "Swagger UI's page to load", func() error {
		if b.run(`document.readyState == "complete" && location.pathname.startsWith("/swagger-ui/")`) == "true" {
			return nil
		}
		return fmt.Errorf("the page is %s", b.run(`document.readyState + " " + location.href`))
	})
	b.run(swaggerUIActions)
	b.run(`actions.authorize("ops", "secret")`)
	if got := b.run(`actions.execute()`); got != "200" {
		t.Errorf("Try it out after authorizing in the dialog: %s, want 200", got)
	}
	// The request carried the user's credentials.
	s.WaitForLog(t, regexp.MustCompile(`msg=request method=GET path=/api/messages .*status=200 .*principal=ops`))
}

// swaggerUIActions defines, in Swagger UI's page, what a user does:
// authorize in the dialog with a name and a password, and run GET
// /api/messages with Try it out, returning the status shown. Each step
// waits for what it needs to appear, up to 20 s.
const swaggerUIActions = `window.actions = {
  find: async (sel, root = document) => {
    const end = Date.now() + 20000;
    for (;;) {
      const e = root.querySelector(sel);
      if (e) return e;
      if (Date.now() > end) throw new Error("nothing matches " + sel);
      await new Promise(r => setTimeout(r, 50));
    }
  },
  type: (input, text) => {
    // React keeps its own copy of an input's value: set it as a keystroke would.
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(input, text);
    input.dispatchEvent(new Event("input", {bubbles: true}));
  },
  authorize: async (name, password) => {
    (await actions.find(".btn.authorize")).click();
    const dialog = await actions.find(".auth-container");
    actions.type(await actions.find("input[type=text]", dialog), name);
    actions.type(await actions.find("input[type=password]", dialog), password);
    (await actions.find(".auth-btn-wrapper .authorize", dialog)).click();
    // Authorized: the dialog offers to log out instead.
    const end = Date.now() + 20000;
    while (![...dialog.querySelectorAll("button")].some(b => b.textContent.trim() == "Logout")) {
      if (Date.now() > end) throw new Error("the dialog did not authorize: " + dialog.innerText);
      await new Promise(r => setTimeout(r, 50));
    }
    (await actions.find(".btn-done", dialog)).click();
  },
  execute: async () => {
    const op = await actions.find("#operations-messages-getApiMessages");
    if (!op.classList.contains("is-open")) (await actions.find(".opblock-summary-control", op)).click();
    const tryOut = await actions.find(".try-out__btn", op);
    if (!tryOut.classList.contains("cancel")) tryOut.click();
    const clear = op.querySelector(".btn-clear");
    if (clear) clear.click();
    (await actions.find(".execute", op)).click();
    return (await actions.find(".live-responses-table tbody .response-col_status", op)).textContent.trim();
  },
}; "defined"`

// chromiumPage loads url in headless Chromium with args (--dump-dom
// returns the rendered page). The profile directory keeps runs apart;
// the virtual time budget lets the page's scripts fetch and render the
// document before Chromium dumps or shoots it.
func chromiumPage(t *testing.T, chromium, url string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=10000", "--window-size=1280,1600"}, args...)
	out, err := exec.CommandContext(ctx, chromium, append(args, url)...).Output()
	if err != nil {
		t.Fatalf("chromium %v: %v", args, err)
	}
	return string(out)
}
