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
	url := config.Bind(b, p+"url", "", config.URL("redis", "rediss"))
	host := config.Bind(b, p+"host", "localhost", config.String)
	port := config.Bind(b, p+"port", 6379, config.Port)
	o := redisstore.Options{
		URL:            url,
		Addr:           net.JoinHostPort(host, strconv.Itoa(port)),
		Username:       config.Bind(b, p+"username", "", config.String),
		Password:       config.Bind(b, p+"password", "", config.String),
		Database:       config.Bind(b, p+"database", 0, config.IntIn(0, 1<<31-1)),
		ClientName:     config.Bind(b, p+"client-name", "", config.String),
		Namespace:      config.Bind(b, "app.session.redis.namespace", "app:session", config.String),
		ConnectTimeout: config.Bind(b, p+"connect-timeout", 3*time.Second, config.Timeout),
		Timeout:        config.Bind(b, p+"timeout", 3*time.Second, config.Timeout),
		Sentinel: redisstore.Sentinel{
			Master:   config.Bind(b, p+"sentinel.master", "", config.String),
			Nodes:    config.Bind(b, p+"sentinel.nodes", nil, nodeList),
			Username: config.Bind(b, p+"sentinel.username", "", config.String),
			Password: config.Bind(b, p+"sentinel.password", "", config.String),
		},
		Cluster: redisstore.Cluster{
			Nodes:        config.Bind(b, p+"cluster.nodes", nil, nodeList),
			MaxRedirects: config.Bind(b, p+"cluster.max-redirects", 5, config.IntIn(1, 100)),
		},
	}

	// As Spring: a bundle makes the connections TLS unless ssl.enabled
	// says false; ssl.enabled alone uses the system's CAs; so does
	// rediss:// (go-redis's ParseURL).
	bundle := config.Bind(b, p+"ssl.bundle", "", config.String)
	enabled := config.Bind(b, p+"ssl.enabled", bundle != "", config.Bool)
	if enabled {
		o.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
		if bundle != "" {
			o.TLS = ssl.BindPEMClient(b, p+"ssl.bundle", bundle)
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
