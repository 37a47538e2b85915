package boot

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// printVersion writes what --version answers: the service's name, the
// module it was built from and the module's version,
// the VCS revision and time the binary was built from (when the build
// recorded them: go build in a git work tree does, go run does not), and
// the Go version.
func printVersion(w io.Writer, name string, build *debug.BuildInfo) {
	if build == nil {
		fmt.Fprintln(w, name+" (no build information)")
		return
	}
	line := name + " " + build.Main.Path + " " + moduleVersion(build)
	var vcs []string
	for _, s := range build.Settings {
		switch s.Key {
		case "vcs.revision", "vcs.time":
			vcs = append(vcs, s.Value)
		case "vcs.modified":
			if s.Value == "true" {
				vcs = append(vcs, "modified")
			}
		}
	}
	if len(vcs) > 0 {
		line += " (" + strings.Join(vcs, ", ") + ")"
	}
	fmt.Fprintln(w, line+" "+build.GoVersion)
}

// moduleVersion is the module's version from the build information,
// "(devel)" for a build from a work tree.
func moduleVersion(build *debug.BuildInfo) string {
	if build != nil && build.Main.Version != "" {
		return build.Main.Version
	}
	return "(devel)"
}
