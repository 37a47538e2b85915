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

// JVMOptions keep the one JVM small on a two-core machine: the serial
// collector, as the JVM loads case after case on one thread. The C2
// compiler stays, since the JVM runs thousands of cases.
var JVMOptions = []string{"-XX:+UseSerialGC"}

// SpringLoader is one JVM running conformance/springenv, which loads case
// after case: Load sends it one and reads its answer.
type SpringLoader struct {
	mu     sync.Mutex // guards stderr
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
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.b.Len() < 1<<16 {
		w.b.Write(p)
	}
	return len(p), nil
}

// stderrText is what the JVM wrote on its standard error so far.
func (s *SpringLoader) stderrText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
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
		return Result{}, fmt.Errorf("springenv: %v (its standard error: %s)", err, s.stderrText())
	}
	line, err := s.stdout.ReadString('\n')
	if err != nil {
		return Result{}, fmt.Errorf("springenv: %v (its standard error: %s)", err, s.stderrText())
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
