package redisstore

// The client: connections to one Redis server, made from its URL, kept in
// a bounded pool, each carrying one command (or one pipeline of commands)
// at a time.
//
// A connection is a stream: each reply answers the oldest command not yet
// answered. A connection that failed mid-command (an I/O error, a timeout,
// a cancelled caller, a reply that breaks the protocol) may still have a
// reply on its way, so it is closed, never pooled again. An error reply
// is a whole reply: its connection stays in step, and is pooled.

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// errClosed is what a closed store answers.
var errClosed = errors.New("redis: the session store is closed")

// server is where and how to connect, as a URL names it.
type server struct {
	addr     string      // host:port
	tls      *tls.Config // nil for redis://
	user     string      // for AUTH; empty for the default user
	password string      // for AUTH; with no password, no AUTH
	db       int64       // for SELECT; 0 needs none
}

// parseURL reads redis://[[user]:password@]host[:port][/db], or rediss://
// for TLS, as go-redis's ParseURL did: the host defaults to localhost,
// the port to 6379, the database to 0. Its errors never quote the URL,
// which may hold a password.
func parseURL(raw string) (server, error) {
	u, err := parseQuietly(raw)
	if err != nil {
		return server{}, err
	}
	return serverAt(u)
}

// parseQuietly is url.Parse with an error that does not quote the URL,
// as *url.Error does, password and all.
func parseQuietly(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if uerr, ok := errors.AsType[*url.Error](err); ok {
		err = uerr.Err
	}
	return u, err
}

// serverAt is the server a parsed URL names (see parseURL).
func serverAt(u *url.URL) (server, error) {
	var s server
	switch u.Scheme {
	case "redis":
	case "rediss":
		s.tls = &tls.Config{ServerName: u.Hostname(), MinVersion: tls.VersionTLS12}
	default:
		return server{}, fmt.Errorf("the scheme is %q; want redis or rediss", u.Scheme)
	}
	if u.Opaque != "" {
		return server{}, errors.New("want redis://host:port/db")
	}
	if q := u.Query(); len(q) > 0 {
		return server{}, fmt.Errorf("options %s are not supported", strings.Join(slices.Sorted(maps.Keys(q)), ", "))
	}
	if u.User != nil {
		s.user = u.User.Username()
		s.password, _ = u.User.Password()
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		host = "localhost"
	}
	if port == "" {
		port = "6379"
	}
	s.addr = net.JoinHostPort(host, port)
	switch db := strings.TrimPrefix(u.Path, "/"); {
	case db == "":
	case strings.Contains(db, "/"):
		return server{}, fmt.Errorf("the path %q has more than a database number", u.Path)
	default:
		var err error
		if s.db, err = strconv.ParseInt(db, 10, 32); err != nil || s.db < 0 {
			return server{}, fmt.Errorf("the database %q is not a number", db)
		}
	}
	return s, nil
}

// handshake is the commands that a new connection sends before any
// other: AUTH with the URL's credentials, SELECT of its database.
func (s server) handshake() [][]any {
	var cmds [][]any
	switch {
	case s.password != "" && s.user != "":
		cmds = append(cmds, []any{"AUTH", s.user, s.password})
	case s.password != "":
		cmds = append(cmds, []any{"AUTH", s.password})
	}
	if s.db != 0 {
		cmds = append(cmds, []any{"SELECT", s.db})
	}
	return cmds
}

// client is a pool of connections to one server. It is safe for
// concurrent use.
type client struct {
	server         server
	connectTimeout time.Duration

	// slots holds a token for each connection in use or being dialled:
	// taking one is the right to a connection, and its capacity the
	// pool's bound. Idle connections hold none, and one is dialled only
	// when none is idle, so no more than cap(slots) are ever open.
	slots   chan struct{}
	closing chan struct{} // closed by close

	mu     sync.Mutex
	idle   []*conn // most recently used last
	closed bool
}

func newClient(s server, connectTimeout time.Duration, size int) *client {
	return &client{server: s, connectTimeout: connectTimeout,
		slots: make(chan struct{}, size), closing: make(chan struct{})}
}

// conn is one connection, with its buffers.
type conn struct {
	net net.Conn
	r   *bufio.Reader
	w   *bufio.Writer
	liveness
}

// do sends one command and returns its reply; an error reply is an error
// of type replyError.
func (c *client) do(ctx context.Context, args ...any) (any, error) {
	replies, err := c.pipeline(ctx, args)
	if err != nil {
		return nil, err
	}
	if e, ok := replies[0].(replyError); ok {
		return nil, e
	}
	return replies[0], nil
}

// pipeline sends the commands on one connection, all of them before
// reading any reply, and returns their replies in order, error replies
// among them: one round trip however many commands.
func (c *client) pipeline(ctx context.Context, cmds ...[]any) ([]any, error) {
	cn, err := c.get(ctx)
	if err != nil {
		return nil, err
	}
	replies, err := cn.roundTrip(ctx, cmds)
	if err != nil {
		c.discard(cn)
		return nil, err
	}
	if cn.r.Buffered() > 0 {
		// Bytes past the last reply answer no command: the server is out
		// of step with this connection, and would answer each later
		// command with the reply of the one before it. (alive cannot see
		// them: they have left the socket for the reader's buffer.)
		c.discard(cn)
		return replies, nil
	}
	c.put(cn)
	return replies, nil
}

// get takes a connection: an idle one, or a new one while the pool has
// room; else it waits, for as long as ctx lets it, for one to be put
// back.
func (c *client) get(ctx context.Context) (*conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case c.slots <- struct{}{}:
	case <-c.closing:
		return nil, errClosed
	case <-ctx.Done():
		return nil, fmt.Errorf("redis: waiting for a connection of the pool: %w", ctx.Err())
	}
	for {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			<-c.slots
			return nil, errClosed
		}
		if len(c.idle) == 0 {
			c.mu.Unlock()
			break
		}
		cn := c.idle[len(c.idle)-1]
		c.idle = c.idle[:len(c.idle)-1]
		c.mu.Unlock()
		if cn.alive() {
			return cn, nil
		}
		cn.net.Close()
	}
	cn, err := c.dial(ctx)
	if err != nil {
		<-c.slots
		return nil, err
	}
	return cn, nil
}

// put returns a connection in step to the pool.
func (c *client) put(cn *conn) {
	c.mu.Lock()
	if c.closed {
		cn.net.Close()
	} else {
		c.idle = append(c.idle, cn)
	}
	c.mu.Unlock()
	<-c.slots
}

// discard closes a connection that failed, freeing its place in the pool.
func (c *client) discard(cn *conn) {
	cn.net.Close()
	<-c.slots
}

// close closes the idle connections, and those in use as they are put
// back; a caller waiting for a connection, and any later one, gets
// errClosed.
func (c *client) close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	close(c.closing)
	idle := c.idle
	c.idle = nil
	c.mu.Unlock()
	var errs []error
	for _, cn := range idle {
		errs = append(errs, cn.net.Close())
	}
	return errors.Join(errs...)
}

// dial connects, within the connect timeout (and ctx), and sends the
// handshake.
func (c *client) dial(ctx context.Context) (*conn, error) {
	ctx, cancel := context.WithTimeout(ctx, c.connectTimeout)
	defer cancel()
	dialer := &net.Dialer{}
	var nc net.Conn
	var err error
	if c.server.tls != nil {
		nc, err = (&tls.Dialer{NetDialer: dialer, Config: c.server.tls}).DialContext(ctx, "tcp", c.server.addr)
	} else {
		nc, err = dialer.DialContext(ctx, "tcp", c.server.addr)
	}
	if err != nil {
		return nil, err
	}
	cn := &conn{net: nc, r: bufio.NewReaderSize(nc, 16<<10), w: bufio.NewWriter(nc)}
	if cmds := c.server.handshake(); len(cmds) > 0 {
		replies, err := cn.roundTrip(ctx, cmds)
		if err == nil {
			err = firstReplyError(replies)
		}
		if err != nil {
			nc.Close()
			return nil, err
		}
	}
	return cn, nil
}

// firstReplyError returns the first error reply among replies, if any.
func firstReplyError(replies []any) error {
	for _, r := range replies {
		if e, ok := r.(replyError); ok {
			return e
		}
	}
	return nil
}

// roundTrip writes the commands and reads their replies, within ctx: its
// deadline is the connection's, and its cancellation closes the
// connection, which ends a read or write in progress at once. An error
// leaves the connection out of step; the caller must close it.
func (cn *conn) roundTrip(ctx context.Context, cmds [][]any) (replies []any, err error) {
	deadline, _ := ctx.Deadline() // the zero time, for none, clears it
	if err := cn.net.SetDeadline(deadline); err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { cn.net.Close() })
	defer func() {
		// The connection was closed by the cancellation, even if every
		// reply arrived first: it must not be pooled.
		if !stop() && err == nil {
			err = ctx.Err()
		}
		// What the failure was is the caller's giving up, or its deadline
		// passing, whatever I/O error that caused. The connection's
		// deadline, ctx's, may pass before ctx says so.
		switch {
		case err == nil:
		case ctx.Err() != nil:
			err = fmt.Errorf("%w (%w)", ctx.Err(), err)
		case errors.Is(err, os.ErrDeadlineExceeded):
			err = fmt.Errorf("%w (%w)", context.DeadlineExceeded, err)
		}
	}()
	for _, args := range cmds {
		if err := writeCommand(cn.w, args...); err != nil {
			return nil, err
		}
	}
	if err := cn.w.Flush(); err != nil {
		return nil, err
	}
	replies = make([]any, len(cmds))
	for i := range replies {
		if replies[i], err = readReply(cn.r); err != nil {
			return nil, err
		}
	}
	return replies, nil
}

// integer is a reply that should be an integer, as such; an error reply
// (of a pipeline) is returned as the error.
func integer(reply any, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	switch reply := reply.(type) {
	case int64:
		return reply, nil
	case replyError:
		return 0, reply
	}
	return 0, fmt.Errorf("redis: want an integer reply, got %T", reply)
}

// bulk is a reply that should be a bulk string, as such; ok is false for
// a null one.
func bulk(reply any, err error) (data []byte, ok bool, _ error) {
	if err != nil {
		return nil, false, err
	}
	switch reply := reply.(type) {
	case []byte:
		return reply, true, nil
	case nil:
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("redis: want a bulk string reply, got %T", reply)
}
