package boot

import (
	"context"
	"io"
	"os"
	"reflect"
	"strings"

	"github.com/springport/greeter/framework/server"
)

// Process is what Run takes from the process a service runs in: its
// arguments and environment, where its output goes, and whom to tell when
// it listens. Main fills it from the operating system's process; a test
// fills it with arguments and an environment of its own (boottest does).
type Process struct {
	// Args are the command-line arguments, without the program's name.
	Args []string
	// LookupEnv looks up an environment variable, as os.LookupEnv does;
	// nil: no variable is set.
	LookupEnv func(key string) (string, bool)
	// VariableNames lists the names of the variables that are set, so
	// that start-up can warn of one meant as a setting that nothing reads
	// (SERVER_PROT), as it does of keys in files and arguments. A lookup
	// function cannot list the environment, hence this; nil: the
	// environment is not searched. Only names are read, never values.
	VariableNames func() []string
	// Stdout receives the log lines; Stderr the failure report. Nil (or a
	// nil pointer, such as a *bytes.Buffer never set) discards them.
	Stdout, Stderr io.Writer
	// Listening, when set, is called with the ports Run listens on, once
	// every one serves and its "Started" line is logged: how a test or a
	// supervisor learns the ports chosen for port 0 without reading the
	// log, whatever its level.
	Listening func([]server.Address)
	// SpanFlush, when set, is given, before Run listens, a function that
	// sends the spans queued at once (see tracing.Tracing.Flush): how a
	// test sees the spans of its requests at the collector without waiting
	// out the batch's delay of 5 s. The batches are sent as ever besides.
	SpanFlush func(flush func(context.Context) error)
}

// OSProcess is the process that runs this program: os.Args without the
// program's name, the process's environment, os.Stdout and os.Stderr.
func OSProcess() Process {
	return Process{Args: os.Args[1:], LookupEnv: os.LookupEnv, VariableNames: processVariableNames(os.Environ()),
		Stdout: os.Stdout, Stderr: os.Stderr}
}

// orDefaults fills what p leaves nil.
func (p Process) orDefaults() Process {
	if p.LookupEnv == nil {
		p.LookupEnv = func(string) (string, bool) { return "", false }
	}
	if isNil(p.Stdout) {
		p.Stdout = io.Discard
	}
	if isNil(p.Stderr) {
		p.Stderr = io.Discard
	}
	return p
}

// isNil reports whether w is nil, or a nil pointer in an io.Writer (a
// *bytes.Buffer field never set), which would panic at the first log
// line rather than discard it.
func isNil(w io.Writer) bool {
	if w == nil {
		return true
	}
	v := reflect.ValueOf(w)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// variableNames is what VariableNames lists, none when it is nil.
func (p Process) variableNames() []string {
	if p.VariableNames == nil {
		return nil
	}
	return p.VariableNames()
}

// processVariableNames are the names of the process's environment
// variables.
func processVariableNames(environ []string) func() []string {
	return func() []string {
		names := make([]string, 0, len(environ))
		for _, kv := range environ {
			if name, _, ok := strings.Cut(kv, "="); ok && name != "" {
				names = append(names, name)
			}
		}
		return names
	}
}
