package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// printVersion writes what --version answers: the module and its version,
// the VCS revision and time the binary was built from (when the build
// recorded them: go build in a git work tree does, go run does not), and
// the Go version.
func printVersion(w io.Writer, build *debug.BuildInfo) {
	if build == nil {
		fmt.Fprintln(w, "greeter (no build information)")
		return
	}
	line := build.Main.Path + " " + moduleVersion(build)
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
