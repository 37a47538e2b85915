package boot

import (
	"io"
	"log/slog"

	"github.com/springport/greeter/framework/logging/logfile"
)

// logOutputs is where the log lines go: stdout and, when logging.file.name
// or logging.file.path names a file, that file too, as Spring Boot's
// default Logback setup adds a file appender beside the console's. The
// file is opened (its folders made) here, and a file that cannot be
// written stops start-up, naming the setting; it is closed last, after
// everything that logs.
func (a *App) logOutputs(p Process) (slog.Handler, error) {
	format := a.settings.logging.Format
	console := newLogger(format, p.Stdout).Handler()
	s := a.settings.logFile
	if s.File == "" {
		return console, nil
	}
	w, err := logfile.Open(logfile.Options{Name: s.File, Policy: s.Policy, Report: func(err error) {
		// Said on stdout only: the file is what fails.
		newLogger(format, p.Stdout).Error("the log file cannot be written; lines go on to stdout (said once)",
			"file", s.File, "err", err)
	}})
	if err != nil {
		a.binder.Refuse(s.Key, "the log file "+s.File+" cannot be written: "+err.Error())
		return nil, a.binder.Err()
	}
	a.closers = append(a.closers, w.Close)
	return slog.NewMultiHandler(console, fileHandler(format, w)), nil
}

// fileHandler writes the file's lines: in the console's format
// (logging.format), as Spring's file appender writes the console's
// pattern. This is the one place that chooses the file's format.
func fileHandler(format string, w io.Writer) slog.Handler {
	return newLogger(format, w).Handler()
}
