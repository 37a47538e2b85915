package redisstore

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/redis/go-redis/v9"
)

// goRedisLog passes what go-redis logs (a dial that failed, a failover
// that Sentinel announced...) to a slog.Logger, so that it is written as
// the service's other lines are, under the store's logger, rather than
// by the standard library's log package on stderr.
type goRedisLog struct{ logger *slog.Logger }

func (l goRedisLog) Printf(ctx context.Context, format string, v ...any) {
	l.logger.WarnContext(ctx, strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: "))
}

// logTo makes go-redis log to logger. go-redis has one logger for the
// whole process, so the store opened last decides; a service opens one.
func logTo(logger *slog.Logger) { redis.SetLogger(goRedisLog{logger}) }
