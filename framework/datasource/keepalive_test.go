package datasource_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/framework/testing/polltest"
)

// TestPoolRecoversFromAPartitionThatLostItsConnections: a partition
// catches every connection of the pool, and heals without them (they stay
// open and silent for good). While it lasts, a ping fails within the
// query timeout; once it heals, the pool has given up the caught
// connections and a ping succeeds on a new one. pgx holds a given
// up connection's place in the pool while it says goodbye to the server,
// up to 15 s: without the bound on that (closing.go) the pool could open
// no connection for that long after the heal.
func TestPoolRecoversFromAPartitionThatLostItsConnections(t *testing.T) {
	t.Parallel()
	server := enginetest.PostgresServer(t)
	proxy := enginetest.NewProxy(t, hostPort(t, server))
	const size, timeout = 4, time.Second
	pool, err := datasource.Open(t.Context(), datasource.Options{
		URL: through(t, server, proxy), MinIdle: size, MaxPoolSize: size,
		ConnectionTimeout: timeout, QueryTimeout: timeout, ValidationTimeout: 250 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	polltest.Until(t, polltest.Timeout, "the pool to open its idle connections", func() error {
		if n := pool.Pgx().Stat().IdleConns(); n < size {
			return errorf("%d idle", n)
		}
		return nil
	})

	proxy.Partition()
	for range 2 {
		began := time.Now()
		err := pool.Ping(t.Context())
		expectOutage(t, "Ping during the partition", err)
		// Unbounded, it would wait for the default query timeout.
		if took := time.Since(began); took >= datasource.DefaultQueryTimeout {
			t.Errorf("Ping during the partition took %v, want about %v", took, timeout)
		}
	}
	proxy.Heal()
	// Each place in the pool is free again within two connection timeouts
	// (the cancel request's, the goodbye's) of its connection being given
	// up, not pgx's 15 s: under that bound, a busy machine has time to
	// spare.
	healed := time.Now()
	polltest.Until(t, 10*time.Second, "a Ping to succeed after the heal", func() error { return pool.Ping(t.Context()) })
	t.Logf("Ping succeeded %v after the heal", time.Since(healed).Round(time.Millisecond))
	polltest.Until(t, 10*time.Second, "the caught connections to be closed", func() error {
		if n := proxy.Caught(); n > 0 {
			return errorf("%d still open", n)
		}
		return nil
	})
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
