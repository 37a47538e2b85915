package redisstore

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"strings"
)

// script is a Lua script that Redis runs atomically. Redis caches the
// scripts it has run by the SHA-1 of their source, so a script is sent by
// its digest (EVALSHA), and in full (EVAL) only when Redis answers that it
// does not know it: the first time, or after a restart or SCRIPT FLUSH.
type script struct {
	source string
	sha1   string // hex
}

func newScript(source string) *script {
	sum := sha1.Sum([]byte(source))
	return &script{source: source, sha1: hex.EncodeToString(sum[:])}
}

// run runs s with KEYS[1] = key and ARGV = args, and returns its reply.
func (c *client) run(ctx context.Context, s *script, key string, args ...any) (any, error) {
	cmd := append([]any{"EVALSHA", s.sha1, "1", key}, args...)
	reply, err := c.do(ctx, cmd...)
	if e, ok := errors.AsType[replyError](err); ok && strings.HasPrefix(string(e), "NOSCRIPT ") {
		cmd[0], cmd[1] = "EVAL", s.source
		reply, err = c.do(ctx, cmd...)
	}
	return reply, err
}
