package actuator

import (
	"runtime/debug"
	"strings"

	"github.com/springport/greeter/framework/config"
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

// handleInfo answers /actuator/info: the info.* settings when env is not
// nil (management.info.env.enabled, Spring's EnvironmentInfoContributor),
// then the build and git sections, which a setting of the same name does
// not hide. Both are fixed for the life of the binary.
func handleInfo(build *debug.BuildInfo, env *config.Environment) func(*dispatch.Request) (map[string]any, error) {
	out := map[string]any{}
	if env != nil {
		out = infoSettings(env)
	}
	in := readInfo(build)
	if in.Build != nil {
		out["build"] = in.Build
	}
	if in.Git != nil {
		out["git"] = in.Git
	}
	return func(*dispatch.Request) (map[string]any, error) { return out, nil }
}

// infoPrefix is the root of the settings that /actuator/info shows.
const infoPrefix = "info."

// infoSettings are the info.* settings that a file or the command line
// sets, nested at their dots as Spring binds them to a map
// (info.app.name=shop is {"app":{"name":"shop"}}), with their values
// resolved and not masked, as Spring shows them: they are written to be
// shown. An environment variable is not listed, as the environment is
// never listed whole (config.Environment.KeysWithPrefix).
func infoSettings(env *config.Environment) map[string]any {
	out := map[string]any{}
	for _, key := range env.KeysWithPrefix(infoPrefix) {
		v, set, err := env.Lookup(key)
		if !set || err != nil {
			continue
		}
		nest(out, strings.TrimPrefix(key, infoPrefix), v.Resolved)
	}
	return out
}
