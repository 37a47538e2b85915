package config

import "testing"

// TestLogFilePlaceholders: ${LOG_FILE} and ${LOG_PATH} resolve as
// Spring's logging system sets them from logging.file.name and
// logging.file.path (name wins; path alone is spring.log in it), a
// source that sets LOG_FILE wins, and with neither they stay as written,
// warned about.
func TestLogFilePlaceholders(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args       []string
		file, path string
	}{
		{args: []string{"--logging.file.name=/var/log/app.log", "--logging.file.path=/var/log"}, file: "/var/log/app.log", path: "/var/log"},
		{args: []string{"--logging.file.path=/srv/logs"}, file: "/srv/logs/spring.log", path: "/srv/logs"},
		{args: []string{"--logging.file.name=${base}/app.log", "--base=/b"}, file: "/b/app.log", path: "${LOG_PATH}"},
		{args: []string{"--logging.file.name=/x.log", "--LOG_FILE=/set.log"}, file: "/set.log", path: "${LOG_PATH}"},
		{args: nil, file: "${LOG_FILE}", path: "${LOG_PATH}"},
	} {
		env := mustLoad(t, loadCase{args: append(c.args, "--p=${LOG_FILE}.%d.%i.gz", "--q=${LOG_PATH}")})
		b := NewBinder(env)
		if got := Bind(b, "p", "", String); got != c.file+".%d.%i.gz" {
			t.Errorf("%v: ${LOG_FILE} = %q, want %q", c.args, got, c.file+".%d.%i.gz")
		}
		if got := Bind(b, "q", "", String); got != c.path {
			t.Errorf("%v: ${LOG_PATH} = %q, want %q", c.args, got, c.path)
		}
		if unresolved := len(b.Warnings()) > 0; unresolved != (c.path == "${LOG_PATH}") {
			t.Errorf("%v: warnings %v", c.args, b.Warnings())
		}
	}
}

// TestLogFilePlaceholderCircular: logging.file.name=${LOG_FILE} is a
// circle, refused rather than looped.
func TestLogFilePlaceholderCircular(t *testing.T) {
	t.Parallel()
	env := mustLoad(t, loadCase{args: []string{"--logging.file.name=${LOG_FILE}"}})
	b := NewBinder(env)
	Bind(b, "logging.file.name", "", String)
	if b.Err() == nil {
		t.Fatal("logging.file.name=${LOG_FILE} bound without an error")
	}
}
