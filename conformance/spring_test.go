// Package conformance_test runs greeter's Spring reference application
// (spring/, test equipment: see spring/README.md) beside greeter, for the
// differential tests of issue 33 (docs/side-by-side.md). This file starts
// the Spring application.
package conformance_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// The Spring Boot lines the reference application is built on, each the
// name of its Maven profile and of its folder under spring/target/.
var springFlavours = []string{"boot4", "boot35"}

// springRequired: GREETER_TEST_SPRING=1 makes a missing java or jar a
// failure rather than a skip.
func springRequired() bool { return os.Getenv("GREETER_TEST_SPRING") == "1" }

// springJar is the path of the flavour's jar, which spring/build makes.
func springJar(flavour string) string {
	return filepath.Join("spring", "target", flavour, "app.jar")
}

// needSpring skips the test (or fails it, with GREETER_TEST_SPRING=1)
// when java or the flavour's jar is missing.
func needSpring(t *testing.T, flavour string) {
	t.Helper()
	needJar(t, springJar(flavour), "conformance/spring/build")
}

// needJar skips the test (or fails it, with GREETER_TEST_SPRING=1) when
// java or jar is missing; build is the script that makes it.
func needJar(t *testing.T, jar, build string) {
	t.Helper()
	why := ""
	if _, err := exec.LookPath("java"); err != nil {
		why = "no java on PATH"
	} else if _, err := os.Stat(jar); err != nil {
		why = fmt.Sprintf("no %s (build it with %s)", jar, build)
	}
	if why == "" {
		return
	}
	if springRequired() {
		t.Fatalf("%s, and GREETER_TEST_SPRING=1", why)
	}
	t.Skipf("%s; GREETER_TEST_SPRING=1 makes this a failure", why)
}

// tomcatPort is the line Spring Boot logs once Tomcat listens (Boot 3.5
// and 4 alike): "Tomcat started on port 41237 (http) with context path '/'".
var tomcatPort = regexp.MustCompile(`Tomcat started on port (\d+)`)

// startSpring starts the flavour's jar (launchSpring) and waits until it
// listens.
func startSpring(t *testing.T, flavour string, args ...string) *app {
	t.Helper()
	app := launchSpring(t, flavour, args...)
	app.waitListening(t)
	return app
}

// jvmOptions make the JVM start sooner: the C1 compiler alone and the
// serial collector suit a short test run of a small application.
var jvmOptions = []string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"}

// launchSpring starts the flavour's jar on a free port (--server.port=0)
// with args, without the environment's SPRING_ variables (so no database,
// Redis or security unless args name them), and stops it when the test
// ends. It does not wait: waitListening does, so that several
// applications start at once.
func launchSpring(t *testing.T, flavour string, args ...string) *app {
	t.Helper()
	needSpring(t, flavour)
	argv := append(append(slices.Clone(jvmOptions), "-jar", springJar(flavour), "--server.port=0", "--server.address=127.0.0.1"), args...)
	return launchProcess(t, flavour, "java", argv, []string{"SPRING_"}, tomcatPort)
}
