package redisstore

import (
	"crypto/tls"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestNewClientChoosesTheTopology: as Spring Boot, a Sentinel master, or
// else Cluster nodes, choose the topology, and the URL wins over the
// separate address and credentials; the store's timeouts bound every
// command whatever the topology. No Redis is needed: nothing is dialled.
func TestNewClientChoosesTheTopology(t *testing.T) {
	const connect, timeout = time.Second, 2 * time.Second
	bundle := &tls.Config{MinVersion: tls.VersionTLS13}
	tests := []struct {
		name  string
		opts  Options
		check func(t *testing.T, c redis.UniversalClient, where string)
	}{
		{"URL wins", Options{URL: "rediss://u:s3cret@cache:6380/2?client_name=from-url", Addr: "other:1", Password: "x", TLS: bundle, ClientName: "mine"},
			func(t *testing.T, c redis.UniversalClient, where string) {
				o := c.(*redis.Client).Options()
				if o.Addr != "cache:6380" || o.Username != "u" || o.Password != "s3cret" || o.DB != 2 || o.ClientName != "from-url" {
					t.Errorf("options %s %s %d %s; want the URL's", o.Addr, o.Username, o.DB, o.ClientName)
				}
				if o.TLSConfig == nil || o.TLSConfig.MinVersion != tls.VersionTLS13 || o.TLSConfig.ServerName != "cache" {
					t.Errorf("TLS %+v; want the bundle's, verifying the URL's host", o.TLSConfig)
				}
				if !o.ContextTimeoutEnabled || o.DialTimeout != connect || o.ReadTimeout != timeout || o.PoolTimeout != timeout {
					t.Errorf("timeouts %v %v %v %v; want the store's, the context's deadline kept", o.ContextTimeoutEnabled, o.DialTimeout, o.ReadTimeout, o.PoolTimeout)
				}
				if strings.Contains(where, "s3cret") || !strings.Contains(where, "cache:6380") {
					t.Errorf("where %q; want the address without the password", where)
				}
			}},
		{"host and port", Options{Addr: "cache:6379", Username: "u", Password: "p", Database: 3, ClientName: "greeter"},
			func(t *testing.T, c redis.UniversalClient, where string) {
				o := c.(*redis.Client).Options()
				if o.Addr != "cache:6379" || o.Username != "u" || o.Password != "p" || o.DB != 3 || o.ClientName != "greeter" || o.TLSConfig != nil {
					t.Errorf("options %+v; want the separate settings, no TLS", o)
				}
			}},
		{"Sentinel", Options{Sentinel: Sentinel{Master: "mymaster", Nodes: []string{"s1:26379", "s2:26379"}}, Cluster: Cluster{Nodes: []string{"n1:7000"}}},
			func(t *testing.T, c redis.UniversalClient, where string) {
				if _, ok := c.(*redis.Client); !ok || !strings.Contains(where, "mymaster") {
					t.Errorf("%T at %q; want a failover client of mymaster (Sentinel before Cluster)", c, where)
				}
			}},
		{"Cluster", Options{URL: "rediss://cache:7000", Cluster: Cluster{Nodes: []string{"n1:7000", "n2:7000"}, MaxRedirects: 4}},
			func(t *testing.T, c redis.UniversalClient, where string) {
				cc, ok := c.(*redis.ClusterClient)
				if !ok {
					t.Fatalf("%T; want a Cluster client", c)
				}
				o := cc.Options()
				if len(o.Addrs) != 2 || o.MaxRedirects != 4 || o.TLSConfig == nil || o.TLSConfig.ServerName != "" || !o.ContextTimeoutEnabled {
					t.Errorf("options %+v; want the nodes, TLS verifying each node's own name, the context's deadline kept", o)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, where, err := newClient(tt.opts, connect, timeout)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			tt.check(t, c, where)
		})
	}
	if _, _, err := newClient(Options{Database: 1, Cluster: Cluster{Nodes: []string{"n1:7000"}}}, connect, timeout); err == nil {
		t.Errorf("a Cluster with database 1: accepted; a Cluster has only database 0")
	}
}
