package redissession

import (
	"crypto/tls"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/session/redisstore"
	"github.com/springport/greeter/framework/ssl"
)

// namespaceKey is Spring Session's namespace, under Spring Boot 4's name
// (spring.session.data.redis.namespace, SessionDataRedisProperties').
const namespaceKey = "app.session.data.redis.namespace"

// Spring Boot 4.0 renamed Spring Session's Redis settings from
// spring.session.redis.* to spring.session.data.redis.*: 3.5's name is
// read too, with a warning (config.Renamed). spring-boot-session-data-redis's
// additional-spring-configuration-metadata.json lists each old key with its
// replacement, at level error.
var _ = config.Renamed(config.Rename{Old: "app.session.redis.namespace", New: namespaceKey, Since: "4.0",
	Source: "module/spring-boot-session-data-redis/src/main/resources/META-INF/additional-spring-configuration-metadata.json"})

// redisSettings are where the Redis session store finds Redis, with
// Spring Boot's spring.data.redis.* names (spring. renamed app.) and
// rules: the URL wins over host, port, username, password and database;
// sentinel.master, or else cluster.nodes, chooses the topology.
type redisSettings struct {
	opts redisstore.Options
	// locator is the setting that says where Redis is, and its value, to
	// name in the error when Redis cannot be reached.
	locator, locatorValue string
}

// bindRedis reads the app.data.redis.* settings. Redis's timeouts
// are shorter than Spring's 60 s because a request waits for them: an
// outage should be a prompt 503, not a hung client.
func bindRedis(b *config.Binder) redisSettings {
	const p = "app.data.redis."
	url := config.Bind(b, p+"url", "", config.URL("redis", "rediss"), "the Redis of the redis session store, as redis://[user:password@]host:port/db (rediss:// for TLS), with go-redis's URL options (?dial_timeout=...); wins over host, port, username, password and database")
	host := config.Bind(b, p+"host", "localhost", config.String, "Redis's host, when no URL is set")
	port := config.Bind(b, p+"port", 6379, config.Port, "Redis's port, when no URL is set")
	o := redisstore.Options{
		URL:            url,
		Addr:           net.JoinHostPort(host, strconv.Itoa(port)),
		Username:       config.Bind(b, p+"username", "", config.String, "the ACL user to authenticate as, when no URL is set"),
		Password:       config.Bind(b, p+"password", "", config.String, "the password to authenticate with, when no URL is set (never shown)"),
		Database:       config.Bind(b, p+"database", 0, config.IntIn(0, 1<<31-1), "the logical database (SELECT), when no URL is set; a Cluster has only 0"),
		ClientName:     config.Bind(b, p+"client-name", "", config.String, "the connections' name, as CLIENT LIST shows it"),
		Namespace:      config.Bind(b, namespaceKey, "app:session", config.String, "prefix of the session keys in Redis"),
		ConnectTimeout: config.Bind(b, p+"connect-timeout", 3*time.Second, config.Timeout, "bound on connecting to Redis"),
		Timeout:        config.Bind(b, p+"timeout", 3*time.Second, config.Timeout, "bound on each session operation in Redis, go-redis's retries included; past it the request is a 503"),
		Sentinel: redisstore.Sentinel{
			Master:   config.Bind(b, p+"sentinel.master", "", config.String, "the name of the primary that the Sentinels watch: Redis is found through them"),
			Nodes:    config.Bind(b, p+"sentinel.nodes", nil, nodeList, "the Sentinels, as host:port,host:port"),
			Username: config.Bind(b, p+"sentinel.username", "", config.String, "the user to authenticate to the Sentinels as"),
			Password: config.Bind(b, p+"sentinel.password", "", config.String, "the password of the Sentinels (never shown)"),
		},
		Cluster: redisstore.Cluster{
			Nodes:        config.Bind(b, p+"cluster.nodes", nil, nodeList, "some nodes of a Redis Cluster, as host:port,host:port: Redis is that Cluster"),
			MaxRedirects: config.Bind(b, p+"cluster.max-redirects", 5, config.IntIn(1, 100), "bound on the MOVED/ASK redirections a command follows in a Cluster"),
		},
	}

	// As Spring: a bundle makes the connections TLS unless ssl.enabled
	// says false; ssl.enabled alone uses the system's CAs; so does
	// rediss:// (go-redis's ParseURL).
	bundle := config.Bind(b, p+"ssl.bundle", "", config.String, "the SSL bundle of the TLS connections (app.ssl.bundle.pem.<name>.* or app.ssl.bundle.jks.<name>.*): its trust store holds the CA, its key store a client certificate; read once")
	enabled := config.Bind(b, p+"ssl.enabled", bundle != "", config.Bool, "TLS to Redis, with the system's CAs unless ssl.bundle names a bundle; on when ssl.bundle is set")
	if enabled {
		o.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
		if bundle != "" {
			o.TLS = ssl.BindClient(b, p+"ssl.bundle", bundle)
		}
	}
	if o.Sentinel.Master != "" && len(o.Sentinel.Nodes) == 0 {
		b.Refuse(p+"sentinel.master", "a Sentinel master needs its Sentinels: set "+p+"sentinel.nodes (host:port,...)")
	}
	if o.Sentinel.Master == "" && len(o.Sentinel.Nodes) > 0 {
		b.Refuse(p+"sentinel.nodes", "Sentinels need the name of the master they watch: set "+p+"sentinel.master")
	}

	s := redisSettings{opts: o, locator: p + "host", locatorValue: o.Addr}
	switch {
	case o.Sentinel.Master != "":
		s.locator, s.locatorValue = p+"sentinel.nodes", strings.Join(o.Sentinel.Nodes, ",")
	case len(o.Cluster.Nodes) > 0:
		s.locator, s.locatorValue = p+"cluster.nodes", strings.Join(o.Cluster.Nodes, ",")
	case o.URL != "":
		s.locator, s.locatorValue = p+"url", o.URL
	}
	return s
}

// nodeList parses a comma-separated list of host:port.
func nodeList(s string) ([]string, error) {
	nodes, _ := config.List(s)
	for _, n := range nodes {
		host, port, err := net.SplitHostPort(n)
		if err != nil || host == "" {
			return nil, fmt.Errorf("%q is not host:port", n)
		}
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return nil, fmt.Errorf("%q: the port is not a number from 1 to 65535", n)
		}
	}
	return nodes, nil
}
