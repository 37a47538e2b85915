package boot

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestPrintVersion(t *testing.T) {
	build := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/springport/greeter", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-26T04:49:47Z"}, {Key: "vcs.modified", Value: "true"}}}
	var out strings.Builder
	printVersion(&out, "greeter", build)
	if want := "greeter github.com/springport/greeter v1.2.3 (abc123, 2026-11-26T04:49:47Z, modified) go1.26.8\n"; out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
	out.Reset()
	printVersion(&out, "greeter", nil)
	if want := "greeter (no build information)\n"; out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
}
