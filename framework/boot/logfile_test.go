package boot_test

// End-to-end tests of the log file (logging.file.*) and its rolling
// policy (logging.logback.rollingpolicy.*), through Run.

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// logFiles returns the content of every file under dir, .gz archives
// decompressed, by name relative to dir.
func logFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(e.Name(), ".gz") {
			z, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s: %v", e.Name(), err)
			}
			if b, err = io.ReadAll(z); err != nil {
				t.Fatalf("%s: %v", e.Name(), err)
			}
		}
		out[e.Name()] = string(b)
	}
	return out
}

// TestLogFileWritesWhatStdoutGets: with logging.file.name the lines go
// to the file as well as to stdout, in the same format, from the first
// (the profiles) through the started line and the request log to
// shutdown; its folder is made. logging.file.path writes spring.log in
// that folder, here as JSON lines as logging.format says.
func TestLogFileWritesWhatStdoutGets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "logs", "app.log")
	s := start(t, []string{"--logging.file.name=" + file, "--server.access-log.enabled=true"}, nil)
	send(t, nil, "GET", s.URL+"/hello/7", "", "X-Request-Id: in-the-file")
	s.WaitForLog(t, regexp.MustCompile(`request_id=in-the-file logger=`))
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"msg=\"No active profile set", "msg=\"Started tester in ", "msg=request method=GET path=/hello/7 ", "request_id=in-the-file logger=tester.accesslog\n"} {
		if !strings.Contains(string(got), want) || !strings.Contains(s.Stdout.String(), want) {
			t.Errorf("the file and stdout do not both say %q:\nfile:\n%s\nstdout:\n%s", want, got, s.Stdout)
		}
	}

	path := filepath.Join(dir, "var")
	j := start(t, []string{"--logging.format=json"}, map[string]string{"LOGGING_FILE_PATH": path})
	j.Stop()
	got, err = os.ReadFile(filepath.Join(path, "spring.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), `"msg":"Started tester in `) {
		t.Errorf("spring.log in logging.file.path:\n%s", got)
	}

	// logging.structured.format.file decides the file's format, whatever
	// the console's.
	ecs := filepath.Join(dir, "ecs.log")
	e := start(t, []string{"--logging.file.name=" + ecs, "--logging.structured.format.file=ecs"}, nil)
	e.Stop()
	if got, err = os.ReadFile(ecs); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(got)), "\n") {
		var doc struct {
			ECS struct{ Version string } `json:"ecs"`
			Log struct{ Logger string }  `json:"log"`
		}
		if err := json.Unmarshal([]byte(line), &doc); err != nil || doc.ECS.Version == "" || doc.Log.Logger == "" {
			t.Errorf("line %d of the ECS file: %v, %+v: %s", i+1, err, doc, line)
		}
	}
	if !strings.Contains(e.Stdout.String(), "level=INFO msg=\"Started tester in ") {
		t.Errorf("stdout is not text with logging.structured.format.file alone:\n%s", e.Stdout)
	}
}

// TestLogFileRollsUnderLoadLosingNoLine: concurrent requests, each
// logged, while the file is archived many times (max-file-size 2KB, its
// 2.4 name logging.file.max-size read with a warning): every request's
// line is in exactly one file, whole, and the archives are gzipped as
// Spring's default pattern says.
func TestLogFileRollsUnderLoadLosingNoLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := start(t, []string{"--logging.file.name=" + filepath.Join(dir, "app.log"), "--logging.file.max-size=2KB",
		"--server.access-log.enabled=true"}, nil)
	const clients, each = 8, 40
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for n := range each {
				boottest.Send(t, nil, "GET", s.URL+"/hello/7", "", fmt.Sprintf("X-Request-Id: c%d-n%d", c, n))
			}
		})
	}
	wg.Wait()
	s.WaitForLog(t, regexp.MustCompile(fmt.Sprintf(`(?s)(request_id=c\d-n\d+ logger=.*){%d}`, clients*each)))
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^time=\S+ level=INFO msg=request method=GET path=/hello/7 route=\S+ status=200 bytes=\d+ duration_ms=\S+ request_id=(c\d-n\d+) logger=\S+$`)
	seen := map[string]int{}
	archives := 0
	for name, content := range logFiles(t, dir) {
		if name != "app.log" {
			if !regexp.MustCompile(`^app\.log\.\d{4}-\d\d-\d\d\.\d+\.gz$`).MatchString(name) {
				t.Errorf("an archive named %s", name)
			}
			archives++
		}
		if len(content) > 2048 {
			t.Errorf("%s holds %d bytes, past 2KB", name, len(content))
		}
		for _, m := range line.FindAllStringSubmatch(content, -1) {
			seen[m[1]]++
		}
		if strings.Count(content, "msg=request ") != len(line.FindAllString(content, -1)) {
			t.Errorf("%s holds a request line that is not whole:\n%s", name, content)
		}
	}
	for c := range clients {
		for n := range each {
			if id := fmt.Sprintf("c%d-n%d", c, n); seen[id] != 1 {
				t.Errorf("request %s logged %d times in the files", id, seen[id])
			}
		}
	}
	if archives < 10 {
		t.Errorf("%d archives: the file was not archived as it grew", archives)
	}
	if !strings.Contains(s.Stdout.String(), "key=logging.file.max-size") {
		t.Errorf("the 2.4 name was not warned about:\n%s", boottest.Tail(s.Stdout.String(), 20))
	}
}

// TestUnwritableLogFileStopsStartUp: a log file that cannot be created
// (its folder would be under a regular file; root may write anywhere
// else) stops start-up, naming the setting as written, its value,
// origin and why; a pattern that cannot be used is refused the same way.
func TestUnwritableLogFileStopsStartUp(t *testing.T) {
	t.Parallel()
	regular := filepath.Join(t.TempDir(), "regular")
	if err := os.WriteFile(regular, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		env  map[string]string
		want []string
	}{
		{[]string{"--logging.file.name=" + regular + "/app.log"}, nil,
			[]string{"Property: logging.file.name", `Value: "` + regular + `/app.log"`, "Origin: command-line argument", "cannot be written", "not a directory"}},
		{nil, map[string]string{"LOGGING_FILE_PATH": regular + "/logs"},
			[]string{"Property: logging.file.path", "Origin: environment variable LOGGING_FILE_PATH", regular + "/logs/spring.log cannot be written"}},
		{[]string{"--logging.file.name=" + regular + ".log", "--logging.logback.rollingpolicy.file-name-pattern=${LOG_FILE}.%d.gz"}, nil,
			[]string{"Property: logging.logback.rollingpolicy.file-name-pattern", "no %i"}},
	} {
		report, err := boottest.FailToStart(t, tester(), c.args, c.env)
		for _, w := range c.want {
			if err == nil || !strings.Contains(report, w) {
				t.Errorf("%v %v: the report does not say %q: %v\n%s", c.args, c.env, w, err, report)
			}
		}
	}
}

// TestLogFileKeysNotReadAreNamed: a misspelt key of the rolling policy
// is warned about with the nearest, rather than counted among Spring's
// settings that mean nothing here; Spring Boot 1's logging.file is
// named with its successor.
func TestLogFileKeysNotReadAreNamed(t *testing.T) {
	t.Parallel()
	s := start(t, []string{"--logging.logback.rollingpolicy.max-file-sise=1KB", "--logging.file=x.log"}, nil)
	s.WaitForLog(t, regexp.MustCompile(`key=logging.logback.rollingpolicy.max-file-sise .*hint="did you mean logging.logback.rollingpolicy.max-file-size\?"`))
	s.WaitForLog(t, regexp.MustCompile(`key=logging.file .*it is logging.file.name`))
	if strings.Contains(s.Stdout.String(), "logging.logback.*") {
		t.Errorf("logging.logback.* still counted as meaning nothing:\n%s", s.Stdout)
	}
}
