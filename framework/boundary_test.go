// Package framework_test holds the checks of the framework as a whole.
package framework_test

import (
	"os/exec"
	"strings"
	"testing"
)

// module is the repository's module path: the framework lives under
// module + "/framework", the services beside it.
const module = "github.com/springport/greeter"

// TestFrameworkImportsNothingOfTheServices checks the line that lets the
// framework be used, and moved, on its own: no framework package, nor any
// of its tests, imports a package of this repository outside framework/
// (greeter's api, domain, stores, its internal helpers).
func TestFrameworkImportsNothingOfTheServices(t *testing.T) {
	out, err := exec.Command("go", "list", "-test",
		"-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", stderr(err))
	}
	packages := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg, deps := fields[0], fields[1:]
		packages++
		for _, dep := range deps {
			if strings.HasPrefix(dep, module+"/") && !inFramework(dep) {
				t.Errorf("%s depends on %s, outside framework/", pkg, dep)
			}
		}
	}
	if packages < 20 {
		t.Fatalf("go list named %d packages under framework/; want them all:\n%s", packages, out)
	}
}

// inFramework reports whether the package path is the framework's: under
// framework/, or this test's own package.
func inFramework(path string) bool {
	return path == module+"/framework_test" || strings.HasPrefix(path, module+"/framework/")
}

func stderr(err error) string {
	if exit, ok := err.(*exec.ExitError); ok {
		return err.Error() + ": " + string(exit.Stderr)
	}
	return err.Error()
}
