package actuator

import (
	"runtime/debug"

	"github.com/springport/greeter/framework/dispatch"
)

// info is the build information, in the shape of Spring Boot's info
// endpoint: build and git sections, each present only when known.
type info struct {
	Build *buildInfo `json:"build,omitempty"`
	Git   *gitInfo   `json:"git,omitempty"`
}

type buildInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Go      string `json:"go"`
}

type gitInfo struct {
	Commit commitInfo `json:"commit"`
	Dirty  bool       `json:"dirty"`
}

type commitInfo struct {
	ID   string `json:"id"`
	Time string `json:"time,omitempty"`
}

// readInfo reads the module version, the Go version and, when the binary
// was built from a version-controlled tree with VCS stamping on, the
// revision.
func readInfo(bi *debug.BuildInfo) info {
	if bi == nil {
		return info{}
	}
	in := info{Build: &buildInfo{Name: bi.Main.Path, Version: bi.Main.Version, Go: bi.GoVersion}}
	var git gitInfo
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			git.Commit.ID = s.Value
		case "vcs.time":
			git.Commit.Time = s.Value
		case "vcs.modified":
			git.Dirty = s.Value == "true"
		}
	}
	if git.Commit.ID != "" {
		in.Git = &git
	}
	return in
}

func handleInfo(build *debug.BuildInfo) func(*dispatch.Request) (info, error) {
	in := readInfo(build) // fixed for the life of the binary
	return func(*dispatch.Request) (info, error) { return in, nil }
}
