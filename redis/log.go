package redis

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	goredis "github.com/redis/go-redis/v9"
)

// driverLogOnce routes go-redis's own log lines (a dial that failed, a
// pool that gave up) into the service's log, in its format, rather than
// as plain lines on stderr. go-redis has one logger for the whole
// process, set without synchronisation, so it is set once, by the first
// Open, before any client of this package runs.
var driverLogOnce sync.Once

func routeDriverLog(logger *slog.Logger) {
	driverLogOnce.Do(func() { goredis.SetLogger(driverLogger{logger}) })
}

// driverLogger is go-redis's logging interface over slog.
type driverLogger struct{ log *slog.Logger }

func (d driverLogger) Printf(ctx context.Context, format string, v ...any) {
	d.log.WarnContext(ctx, fmt.Sprintf(format, v...), "logger", "go-redis")
}
