package main

// Sessions in a Redis Cluster and in a Redis behind Sentinel, started by
// the tests (framework/testing/redistest), configured with Spring Boot's settings.

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/redistest"
)

// TestSessionsInRedisCluster keeps instances' sessions in a Cluster of
// three primaries, named by app.data.redis.cluster.nodes: two serve one
// session's counter in turn, and a third, started later, finds it.
//
// An instance keeps the session's counters in memory once it has served
// them, so each step goes to an instance that has not yet served the
// session, or that saved the last change (as sticky sessions do; see
// component.SharedSessionStore): what it answers comes from Redis.
func TestSessionsInRedisCluster(t *testing.T) {
	t.Parallel()
	cluster := redistest.Cluster(t)
	args := []string{"--server.port=0", "--app.session.store-type=redis",
		"--app.data.redis.cluster.nodes=" + strings.Join(cluster.Addrs(), ",")}
	a, b := boottest.Start(t, service, args, nil), boottest.Start(t, service, args, nil)
	c := newClient(t, a.URL)
	c.expect("POST", "/counters/cluster", `{"by":4}`, 200, `"value":4`)
	c.base = b.URL
	c.expect("POST", "/counters/cluster", `{"by":1}`, 200, `"value":5`)
	c.base = boottest.Start(t, service, args, nil).URL
	c.expect("GET", "/counters/cluster", "", 200, `"value":5`)
}

// TestSessionsInRedisSentinel keeps instances' sessions in a primary
// that Sentinels watch, named by app.data.redis.sentinel.master and
// .nodes: two serve one session's counter in turn; after the replica is
// promoted (SENTINEL FAILOVER), an instance started then finds the
// counter's value and counts on, and another started after it finds the
// new value. (Fresh instances, as in TestSessionsInRedisCluster: what
// they answer comes from Redis, not from an instance's memory.)
func TestSessionsInRedisSentinel(t *testing.T) {
	t.Parallel()
	s := redistest.Sentinel(t)
	args := []string{"--server.port=0", "--app.session.store-type=redis",
		"--app.data.redis.sentinel.master=" + s.MasterName(),
		"--app.data.redis.sentinel.nodes=" + strings.Join(s.SentinelAddrs(), ",")}
	a, b := boottest.Start(t, service, args, nil), boottest.Start(t, service, args, nil)
	c := newClient(t, a.URL)
	c.expect("POST", "/counters/sentinel", `{"by":4}`, 200, `"value":4`)
	c.base = b.URL
	c.expect("POST", "/counters/sentinel", `{"by":1}`, 200, `"value":5`)

	primary := s.MasterAddr()
	s.Failover(t)
	if s.MasterAddr() == primary {
		t.Fatalf("the primary is still %s after the failover", primary)
	}
	// Until the instance has found the new primary, a request may be
	// answered 503 (Redis unavailable), and nothing else.
	c.base = boottest.Start(t, service, args, nil).URL
	var status int
	var body string
	boottest.WaitFor(t, "the counter served after the failover", func() bool {
		status, body = c.do("GET", "/counters/sentinel", "")
		if status != 200 && status != 503 {
			t.Fatalf("GET after the failover: %d %s; want 200, or 503 while Redis is unavailable", status, body)
		}
		return status == 200
	})
	if !strings.Contains(body, `"value":5`) {
		t.Errorf("GET after the failover: %s; want the value 5 saved before it", body)
	}
	c.expect("POST", "/counters/sentinel", `{"by":2}`, 200, `"value":7`)
	c.base = boottest.Start(t, service, args, nil).URL
	c.expect("GET", "/counters/sentinel", "", 200, `"value":7`)
}
