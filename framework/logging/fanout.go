package logging

import "log/slog"

// Fanout returns the handler that passes every record to each of hs, as
// the console's and the log file's, each writing the logger's name in
// its own place (a structured format's field, text's last attribute):
// slog.NewMultiHandler alone would give them the name as a first
// attribute.
func Fanout(hs ...slog.Handler) slog.Handler {
	return fanout{Handler: slog.NewMultiHandler(hs...), each: hs}
}

type fanout struct {
	slog.Handler
	each []slog.Handler
}

func (f fanout) withLogger(name string) slog.Handler {
	named := make([]slog.Handler, len(f.each))
	for i, h := range f.each {
		named[i] = withLoggerName(h, name)
	}
	return slog.NewMultiHandler(named...)
}
