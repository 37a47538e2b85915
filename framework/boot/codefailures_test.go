package boot_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// TestRouteTableMistakeIsTheCodes: routes that dispatch.New refuses stop
// start-up with a report that names each route and says the service's
// code must change, not its configuration.
func TestRouteTableMistakeIsTheCodes(t *testing.T) {
	t.Parallel()
	svc := boot.Service[struct{}]{Name: "links", Start: func(_ context.Context, app *boot.App, _ struct{}) error {
		app.Routes(
			dispatch.Route{Method: "GET", Pattern: "/old", Status: http.StatusFound, Handler: dispatch.Runs(func(*dispatch.Request) error { return nil })},
			dispatch.Route{Method: "GET", Pattern: "/links/{code}", Handler: dispatch.Returns(func(*dispatch.Request) (string, error) { return "", nil })},
		)
		return nil
	}}
	report, err := boottest.FailToStart(t, svc, []string{"--server.port=0"}, nil)
	if _, ok := errors.AsType[*dispatch.TableError](err); !ok {
		t.Errorf("Run's error is not a *dispatch.TableError: %v", err)
	}
	for _, want := range []string{
		"APPLICATION FAILED TO START",
		"invalid route table:\nroute GET /old: success status 302 is a redirect, but its handler answers with no Location",
		"route GET /links/{code}: path variable {code} has no declared type",
		"Action:\n\nFix the route declarations named above in the service's code",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report does not say %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, "configuration") {
		t.Errorf("the report sends the user to the configuration:\n%s", report)
	}
}

// packagedGreeting is a service that answers its packaged greeting.
func packagedGreeting(resources fs.FS) boot.Service[string] {
	return boot.Service[string]{Name: "greeting", Resources: resources,
		Bind: func(b *config.Binder) string { return config.Bind(b, "greeting.text", "default", config.String) },
		Start: func(_ context.Context, app *boot.App, text string) error {
			app.Routes(dispatch.Route{Method: "GET", Pattern: "/", Handler: dispatch.Returns(func(*dispatch.Request) (string, error) { return text, nil })})
			return nil
		}}
}

// TestEmbeddedSettingsInAFolder: a service that embeds its settings with
// //go:embed resources, and passes the embed.FS as it is, is refused
// with the way to pass them, rather than left on its defaults; passed
// through fs.Sub, as the refusal says, they are read.
func TestEmbeddedSettingsInAFolder(t *testing.T) {
	t.Parallel()
	embedded := fstest.MapFS{"resources/application.properties": {Data: []byte("greeting.text=packaged\n")}}
	report, err := boottest.FailToStart(t, packagedGreeting(embedded), []string{"--server.port=0"}, nil)
	if _, ok := errors.AsType[*config.EmbeddedSettingsError](err); !ok {
		t.Errorf("Run's error is not a *config.EmbeddedSettingsError: %v", err)
	}
	for _, want := range []string{
		"in the folder resources/ of the embedded files (resources/application.properties), not at their root",
		`Action:` + "\n\n" + `Give the service its settings files at the root of Service.Resources: fs.Sub(resources, "resources")`,
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report does not say %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, "configuration") {
		t.Errorf("the report sends the user to the configuration:\n%s", report)
	}

	sub, err := fs.Sub(embedded, "resources")
	if err != nil {
		t.Fatal(err)
	}
	app, err := boot.New(context.Background(), packagedGreeting(sub), boot.Process{})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	rec := httptest.NewRecorder()
	app.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Body.String() != "packaged" {
		t.Errorf("through fs.Sub the service answers %q, not its packaged greeting", rec.Body)
	}
}

// TestNilWritersDiscard: a Process without writers, or with nil pointers
// for them, discards the log lines and the failure report, in New and
// in Run, rather than panicking at the first line.
func TestNilWritersDiscard(t *testing.T) {
	t.Parallel()
	var unset *bytes.Buffer
	failing := boot.Service[struct{}]{Name: "failing", Start: func(_ context.Context, app *boot.App, _ struct{}) error {
		app.Routes(dispatch.Route{Method: "GET", Pattern: "/fail", Handler: dispatch.Runs(func(*dispatch.Request) error { return errors.New("logged") })})
		return nil
	}}
	for name, p := range map[string]boot.Process{
		"nil":          {Args: []string{"--logging.level.root=debug"}},
		"nil pointers": {Args: []string{"--logging.level.root=debug", "--logging.format=json"}, Stdout: unset, Stderr: unset},
	} {
		app, err := boot.New(context.Background(), failing, p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rec := httptest.NewRecorder()
		app.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/fail", nil)) // logs an ERROR line
		if rec.Code != http.StatusInternalServerError {
			t.Errorf("%s: GET /fail answered %d", name, rec.Code)
		}
		if err := app.Close(); err != nil {
			t.Errorf("%s: Close: %v", name, err)
		}
		p.Args = []string{"--server.port=-1"} // a failure report, for Stderr
		if err := boot.Run(context.Background(), failing, p); err == nil {
			t.Errorf("%s: Run started on port -1", name)
		}
		for _, arg := range []string{"--help", "--version"} {
			p.Args = []string{arg}
			if err := boot.Run(context.Background(), failing, p); err != nil {
				t.Errorf("%s: Run %s: %v", name, arg, err)
			}
		}
	}
}
