package redistest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestClusterServesKeysOfEverySlotThroughAClusterClient(t *testing.T) {
	t.Parallel()
	c := Cluster(t)
	if n := len(c.Addrs()); n != 3 {
		t.Fatalf("%d nodes, want 3", n)
	}
	client := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs(), DialTimeout: time.Second})
	defer client.Close()
	ctx := context.Background()

	// Keys until each of the three primaries holds some, checked by
	// asking every node directly which keys it holds.
	const keys = 60
	for i := range keys {
		k, v := fmt.Sprintf("key-%d", i), fmt.Sprintf("value-%d", i)
		if err := client.Set(ctx, k, v, 0).Err(); err != nil {
			t.Fatalf("SET %s: %v", k, err)
		}
	}
	for i := range keys {
		k := fmt.Sprintf("key-%d", i)
		got, err := client.Get(ctx, k).Result()
		if err != nil || got != fmt.Sprintf("value-%d", i) {
			t.Fatalf("GET %s = %q, %v; want value-%d", k, got, err, i)
		}
	}
	total := int64(0)
	for _, addr := range c.Addrs() {
		node := redis.NewClient(&redis.Options{Addr: addr})
		n, err := node.DBSize(ctx).Result()
		node.Close()
		if err != nil {
			t.Fatalf("DBSIZE on %s: %v", addr, err)
		}
		if n == 0 {
			t.Errorf("node %s holds none of the %d keys: the slots are not shared", addr, keys)
		}
		total += n
	}
	if total != keys {
		t.Errorf("the nodes hold %d keys together, want %d", total, keys)
	}

	// A node asked for a key of another's slot redirects; a plain client
	// sees the redirection, which is what makes the ClusterClient needed.
	node := redis.NewClient(&redis.Options{Addr: c.Addrs()[0], MaxRetries: -1})
	defer node.Close()
	moved := 0
	for i := range keys {
		if err := node.Get(ctx, fmt.Sprintf("key-%d", i)).Err(); err != nil && strings.HasPrefix(err.Error(), "MOVED ") {
			moved++
		}
	}
	if moved == 0 {
		t.Errorf("node %s answered every key itself: it is not part of a cluster", c.Addrs()[0])
	}
}
