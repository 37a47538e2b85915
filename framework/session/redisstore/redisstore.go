// Package redisstore keeps a service's HTTP sessions in Redis, so that they
// survive a restart and every instance of the service shares them: it is
// the component.SharedSessionStore of the session scope, the counterpart
// of Spring Session's Redis repository.
//
// Each session is one Redis hash, under Namespace+":sessions:{"+id+"}",
// that expires when the session has been idle for IdleTimeout:
//
//	created          when the session began, in Unix milliseconds; it keeps
//	                 the hash present before any component has a state
//	state:<name>     the saved state of session component <name>, as its
//	                 MarshalBinary wrote it
//
// Create, Touch and every save (re)set the hash's expiry; Delete removes
// it. Redis expires an idle hash by itself and tells no one, so the
// process follows the sessions it has created or touched, and a sweeper
// reports the end of those Redis no longer holds (see sweep.go).
//
// The braces are a hash tag: Redis Cluster places a key by the part in
// braces only, so every key of one session is in one slot, and each
// script below, which touches one session, runs on one node.
//
// The client is go-redis (github.com/redis/go-redis/v9): one server,
// a primary behind Sentinel, or a Cluster, with or without TLS (see
// Options). Redis failing or out of reach is an *outage.Error; the client
// reconnects by itself when Redis is back.
package redisstore

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/outage"
)

// Options configure Open. Zero values are defaults.
//
// Where Redis is follows Spring Boot's spring.data.redis.* rules: URL,
// when set, wins over Addr, Username, Password and Database; Sentinel,
// when it names a master, or else Cluster, when it names nodes, chooses
// the topology, and the credentials, database and TLS above then apply
// to the data nodes.
type Options struct {
	// URL locates the server, as redis://[user:password@]host:port/db
	// (rediss:// for TLS), with any query option that go-redis's
	// ParseURL understands (dial_timeout, max_retries, ...). It is never
	// printed with its password.
	URL string
	// Addr is host:port, when URL is empty; empty means 127.0.0.1:6379.
	Addr string
	// Username and Password authenticate (AUTH) to the data nodes, when
	// URL is empty. Password is never printed.
	Username, Password string
	// Database is the logical database (SELECT), when URL is empty.
	Database int
	// ClientName names the connections (CLIENT SETNAME), as CLIENT LIST
	// shows them; a URL's client_name wins.
	ClientName string
	// TLS, when not nil, makes every connection TLS with this
	// configuration (its CA, its client certificate); rediss:// makes it
	// TLS with the system's CAs when TLS is nil. An empty ServerName is
	// each node's host name.
	TLS *tls.Config
	// Sentinel, when Master is set, asks these Sentinels where the
	// primary is, and follows its failovers.
	Sentinel Sentinel
	// Cluster, when Nodes is set, speaks to a Redis Cluster that these
	// nodes (any of them) belong to.
	Cluster Cluster

	// Namespace prefixes every key; empty means "app:session", as app.session.data.redis.namespace.
	Namespace string
	// IdleTimeout ends a session unused for this long: Redis expires it.
	// Zero (or less) means 30 minutes, Spring Boot's default.
	IdleTimeout time.Duration
	// ConnectTimeout bounds establishing a connection; zero (or less) means 3s.
	ConnectTimeout time.Duration
	// Timeout bounds each store operation as a whole: waiting for a
	// pooled connection, and whatever go-redis retries, included. Zero (or
	// less) means 3s.
	Timeout time.Duration
	// MaxSessions bounds how many sessions this process follows to report
	// their ends; past it, it reports the least recently touched one as
	// ended here and forgets it, which releases only its instances in this
	// process. Zero (or less) means 100,000.
	MaxSessions int
	// SweepInterval is how often the sweeper looks for sessions Redis has
	// expired; zero (or less) means the idle timeout, at most a minute.
	SweepInterval time.Duration
	// Logger logs what the sweeper cannot return, Redis failing while it
	// sweeps, and what go-redis logs (see logTo). Nil means slog.Default().
	Logger *slog.Logger
}

// Sentinel locates a primary through Redis Sentinel.
type Sentinel struct {
	Master             string   // the name the Sentinels know the primary by
	Nodes              []string // host:port of Sentinels
	Username, Password string   // for the Sentinels themselves; Password is never printed
}

// Cluster locates a Redis Cluster.
type Cluster struct {
	Nodes []string // host:port of some of its nodes
	// MaxRedirects bounds the MOVED/ASK redirections one command follows;
	// zero (or less) means go-redis's 3.
	MaxRedirects int
}

// Open connects to Redis as opts say, checks it answers, and starts the
// sweeper; Close stops both. A server that cannot be reached is an
// *outage.Error.
func Open(ctx context.Context, opts Options) (*Store, error) {
	return open(ctx, opts, time.Now)
}

// open is Open with the clock by which the store follows sessions here.
func open(ctx context.Context, opts Options, now func() time.Time) (*Store, error) {
	connect := positiveOr(opts.ConnectTimeout, 3*time.Second)
	timeout := positiveOr(opts.Timeout, 3*time.Second)
	client, where, err := newClient(opts, connect, timeout)
	if err != nil {
		return nil, err
	}
	s := newStore(client, opts, timeout, now)
	logTo(s.logger)
	pingCtx, cancel := context.WithTimeout(ctx, connect+timeout)
	defer cancel()
	if err := client.Ping(pingCtx).Err(); err != nil {
		client.Close()
		return nil, fmt.Errorf("redis: connecting to %s: %w", where, failure(err))
	}
	s.startSweeper()
	return s, nil
}

// newClient makes the go-redis client that opts describe: one server, a
// primary behind Sentinels, or a Cluster. where names it in errors,
// without a password.
//
// Every operation of the store runs under its own deadline (Timeout), and
// ContextTimeoutEnabled makes go-redis keep to it, retries included; the
// read and write timeouts bound one network exchange within it.
func newClient(opts Options, connect, timeout time.Duration) (_ redis.UniversalClient, where string, _ error) {
	base := &redis.Options{Addr: cmp.Or(opts.Addr, "127.0.0.1:6379"), Username: opts.Username,
		Password: opts.Password, DB: opts.Database}
	where = base.Addr
	if opts.URL != "" {
		if _, err := parseQuietly(opts.URL); err != nil {
			return nil, "", fmt.Errorf("redis: the URL is invalid (not shown, as it may hold a password): %w", err)
		}
		// Masked by the same rules as the settings reports, so that a
		// password in the query (which go-redis refuses, quoting the
		// option) is masked as well as the user-info's.
		where = config.MaskPasswords(opts.URL)
		var err error
		if base, err = redis.ParseURL(opts.URL); err != nil {
			return nil, "", fmt.Errorf("redis: URL %s: %w", where, err)
		}
	}
	base.ClientName = cmp.Or(base.ClientName, opts.ClientName)
	if opts.TLS != nil {
		cfg := opts.TLS.Clone()
		if cfg.ServerName == "" && base.TLSConfig != nil {
			cfg.ServerName = base.TLSConfig.ServerName
		}
		base.TLSConfig = cfg
	}
	if base.TLSConfig != nil && base.TLSConfig.MinVersion == 0 {
		base.TLSConfig.MinVersion = tls.VersionTLS12
	}
	// A host name given for one server is no other node's: with many
	// nodes, each is verified under its own name.
	manyNodes := func() *tls.Config {
		if base.TLSConfig == nil || opts.TLS != nil && opts.TLS.ServerName != "" {
			return base.TLSConfig
		}
		cfg := base.TLSConfig.Clone()
		cfg.ServerName = ""
		return cfg
	}
	switch {
	case opts.Sentinel.Master != "":
		if len(opts.Sentinel.Nodes) == 0 {
			return nil, "", fmt.Errorf("redis: Sentinel master %q: no Sentinel nodes", opts.Sentinel.Master)
		}
		where = fmt.Sprintf("master %q of the Sentinels %s", opts.Sentinel.Master, strings.Join(opts.Sentinel.Nodes, ","))
		return redis.NewFailoverClient(&redis.FailoverOptions{
			MasterName: opts.Sentinel.Master, SentinelAddrs: opts.Sentinel.Nodes,
			SentinelUsername: opts.Sentinel.Username, SentinelPassword: opts.Sentinel.Password,
			Username: base.Username, Password: base.Password, DB: base.DB,
			ClientName: base.ClientName, TLSConfig: manyNodes(), Protocol: base.Protocol,
			MaxRetries: base.MaxRetries, PoolSize: base.PoolSize, MinIdleConns: base.MinIdleConns,
			DialTimeout: connect, ReadTimeout: timeout, WriteTimeout: timeout, PoolTimeout: timeout,
			ContextTimeoutEnabled: true,
		}), where, nil
	case len(opts.Cluster.Nodes) > 0:
		if base.DB != 0 {
			return nil, "", fmt.Errorf("redis: a Redis Cluster has only database 0, not %d", base.DB)
		}
		where = "the Cluster of " + strings.Join(opts.Cluster.Nodes, ",")
		return redis.NewClusterClient(&redis.ClusterOptions{
			Addrs: opts.Cluster.Nodes, MaxRedirects: opts.Cluster.MaxRedirects,
			Username: base.Username, Password: base.Password,
			ClientName: base.ClientName, TLSConfig: manyNodes(), Protocol: base.Protocol,
			MaxRetries: base.MaxRetries, PoolSize: base.PoolSize, MinIdleConns: base.MinIdleConns,
			DialTimeout: connect, ReadTimeout: timeout, WriteTimeout: timeout, PoolTimeout: timeout,
			ContextTimeoutEnabled: true,
		}), where, nil
	}
	base.DialTimeout, base.ReadTimeout, base.WriteTimeout, base.PoolTimeout = connect, timeout, timeout, timeout
	base.ContextTimeoutEnabled = true
	return redis.NewClient(base), where, nil
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

// Close stops the sweeper and closes the connections. Closing twice is
// harmless. It reports no session as ended: they live on in Redis.
func (s *Store) Close() error {
	s.mu.Lock()
	wasClosed := s.closed
	s.closed = true
	s.mu.Unlock()
	if wasClosed {
		return nil
	}
	s.stopSweeper()
	<-s.sweeperDone
	return s.client.Close()
}

// Ping reports the server's version ("7.0.15"), for health details; an
// unreachable server is an *outage.Error.
func (s *Store) Ping(ctx context.Context) (version string, err error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	info, err := s.client.Info(ctx, "server").Result()
	if err != nil {
		return "", failure(err)
	}
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(line, "redis_version:"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", errors.New("redis: INFO server names no redis_version")
}

// PoolStats reports the client's connection pools (all nodes' together).
func (s *Store) PoolStats() *redis.PoolStats { return s.client.PoolStats() }

// bound limits one operation of the store, retries included, to the
// store's timeout.
func (s *Store) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}

// errClosed is what a closed store answers.
var errClosed = errors.New("redis: the session store is closed")

// failure classifies an error of the client: an *outage.Error when Redis
// could not be reached, did not answer in time or cannot serve now (it is
// loading, a read-only replica, out of memory...), since the same request
// may succeed later; the error itself, wrapped, when asking again would
// not help (a wrong password, a key of another type, a closed store) or
// the caller gave up.
func failure(err error) error {
	reply, isReply := errors.AsType[redis.Error](err)
	switch {
	case errors.Is(err, redis.ErrClosed), errors.Is(err, errClosed):
		return errClosed
	case errors.Is(err, context.Canceled), isReply && !busy(reply.Error()):
		return fmt.Errorf("redis: %w", err)
	}
	return &outage.Error{Dependency: "Redis", Err: err}
}

// busyCodes begin the error replies by which Redis says that it cannot
// serve now, rather than that the request was wrong: go-redis's list.
var busyCodes = []string{"LOADING ", "READONLY ", "MASTERDOWN ", "CLUSTERDOWN ", "TRYAGAIN ",
	"ERR max number of clients reached", "OOM ", "NOREPLICAS ", "BUSY"}

// busy reports whether an error reply says that Redis cannot serve now.
func busy(reply string) bool {
	for _, code := range busyCodes {
		if strings.HasPrefix(reply, code) {
			return true
		}
	}
	return false
}
