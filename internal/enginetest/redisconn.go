package enginetest

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// redisConn is one connection to Redis, for the few commands of these
// helpers. The service's own client is unexported in package redis, so
// this one is as small as a client can be: the helpers send only
// commands whose reply is one line (+OK, :3, -ERR ...), and a Lua script
// where a command's reply would not be.
type redisConn struct {
	conn net.Conn
	r    *bufio.Reader
}

// dialRedis connects to the Redis at rawURL (redis://[[user]:password@]
// host[:port][/db]), authenticating and selecting the database as the
// URL says. Each command must be answered within timeout.
func dialRedis(rawURL string, timeout time.Duration) (*redisConn, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "redis" {
		return nil, fmt.Errorf("the scheme is %q; the tests' Redis is reached by redis://", u.Scheme)
	}
	port := u.Port()
	if port == "" {
		port = "6379"
	}
	conn, err := net.DialTimeout("tcp", net.JoinHostPort(u.Hostname(), port), timeout)
	if err != nil {
		return nil, err
	}
	conn.SetDeadline(time.Now().Add(timeout))
	c := &redisConn{conn: conn, r: bufio.NewReader(conn)}
	if password, ok := u.User.Password(); ok {
		args := []string{"AUTH", password}
		if user := u.User.Username(); user != "" {
			args = []string{"AUTH", user, password}
		}
		if _, err := c.do(args...); err != nil {
			conn.Close()
			return nil, err
		}
	}
	if db := strings.TrimPrefix(u.Path, "/"); db != "" && db != "0" {
		if _, err := c.do("SELECT", db); err != nil {
			conn.Close()
			return nil, err
		}
	}
	return c, nil
}

// do sends a command, as an array of bulk strings, and returns its
// one-line reply without its type: "OK" for +OK, "3" for :3. An error
// reply is an error.
func (c *redisConn) do(args ...string) (string, error) {
	var cmd []byte
	cmd = fmt.Appendf(cmd, "*%d\r\n", len(args))
	for _, a := range args {
		cmd = fmt.Appendf(cmd, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := c.conn.Write(cmd); err != nil {
		return "", err
	}
	line, err := c.r.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimSuffix(line, "\r\n")
	switch {
	case strings.HasPrefix(line, "-"):
		return "", errors.New(line[1:])
	case strings.HasPrefix(line, "+"), strings.HasPrefix(line, ":"):
		return line[1:], nil
	}
	return "", fmt.Errorf("%s: a reply of more than one line, %q", args[0], line)
}

// count sends a command that answers with an integer, and returns it.
func (c *redisConn) count(args ...string) (int, error) {
	reply, err := c.do(args...)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(reply)
}

func (c *redisConn) Close() error { return c.conn.Close() }

// deleteKeysScript deletes the keys that match ARGV[1] and returns how
// many it deleted: SCAN's replies stay in Redis.
const deleteKeysScript = `
local deleted, cursor = 0, '0'
repeat
  local page = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
  cursor = page[1]
  for _, key in ipairs(page[2]) do
    deleted = deleted + redis.call('DEL', key)
  end
until cursor == '0'
return deleted`
