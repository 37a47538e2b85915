package settingsfuzz

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
)

// JVMOptions make the one JVM start sooner and stay small: it loads many
// small cases, so the C2 compiler's later speed-up is not worth its
// start; the serial collector suits one thread.
var JVMOptions = []string{"-XX:+UseSerialGC", "-Xss1m", "-Xshare:auto"}

// SpringLoader is one JVM running conformance/springenv, which loads case
// after case: Load sends it one and reads its answer.
type SpringLoader struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr strings.Builder
}

// StartSpring starts the program in jar.
func StartSpring(jar string) (*SpringLoader, error) {
	s := &SpringLoader{}
	s.cmd = exec.Command("java", append(append([]string{}, JVMOptions...), "-jar", jar)...)
	s.cmd.Stderr = &lockedWriter{b: &s.stderr, mu: &s.mu}
	var err error
	if s.stdin, err = s.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s.stdout = bufio.NewReaderSize(out, 1<<16)
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	return s, nil
}

// lockedWriter keeps the JVM's standard error for a report.
type lockedWriter struct {
	b  *strings.Builder
	mu *sync.Mutex
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	if w.b.Len() < 1<<16 {
		w.b.Write(p)
	}
	return len(p), nil
}

// Load asks the JVM to load r.
func (s *SpringLoader) Load(r Request) (Result, error) {
	var b strings.Builder
	b.WriteString("case\ndir\t" + r.Dir + "\n")
	for _, e := range r.Env {
		b.WriteString("env\t" + e.Key + "\t" + e.Value + "\n")
	}
	for _, a := range r.Args {
		b.WriteString("arg\t" + a + "\n")
	}
	for _, k := range r.Keys {
		b.WriteString("key\t" + k + "\n")
	}
	b.WriteString("end\n")
	if _, err := io.WriteString(s.stdin, b.String()); err != nil {
		return Result{}, fmt.Errorf("springenv: %v (its standard error: %s)", err, s.stderr.String())
	}
	line, err := s.stdout.ReadString('\n')
	if err != nil {
		return Result{}, fmt.Errorf("springenv: %v (its standard error: %s)", err, s.stderr.String())
	}
	var res Result
	if err := json.Unmarshal([]byte(line), &res); err != nil {
		return Result{}, fmt.Errorf("springenv answered %q: %v", line, err)
	}
	return res, nil
}

// Close ends the JVM: its input closes, and it exits.
func (s *SpringLoader) Close() error {
	s.stdin.Close()
	return s.cmd.Wait()
}
