package redistest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestSentinelFailoverPromotesTheReplica(t *testing.T) {
	t.Parallel()
	s := Sentinel(t)
	if n := len(s.SentinelAddrs()); n != 3 {
		t.Fatalf("%d sentinels, want 3", n)
	}
	master, replica := s.MasterAddr(), s.ReplicaAddr()
	s.Failover(t)
	if s.MasterAddr() != replica || s.ReplicaAddr() != master {
		t.Errorf("after Failover the primary is %s and the replica %s, want %s and %s", s.MasterAddr(), s.ReplicaAddr(), replica, master)
	}
	// Every sentinel names the new primary, as a client asks them.
	for _, addr := range s.SentinelAddrs() {
		c := redis.NewSentinelClient(&redis.Options{Addr: addr})
		got, err := c.GetMasterAddrByName(context.Background(), s.MasterName()).Result()
		c.Close()
		if err != nil || len(got) != 2 || got[0]+":"+got[1] != replica {
			t.Errorf("sentinel %s names %v (%v) as the primary, want %s", addr, got, err, replica)
		}
	}
}

// TestSentinelFailoverClientSurvivesAFailover runs commands through
// go-redis's sentinel-aware client while the replica is promoted: some may
// fail while the primary changes, none after the client has moved to the
// new primary.
func TestSentinelFailoverClientSurvivesAFailover(t *testing.T) {
	t.Parallel()
	s := Sentinel(t)
	client := redis.NewFailoverClient(&redis.FailoverOptions{
		MasterName:    s.MasterName(),
		SentinelAddrs: s.SentinelAddrs(),
		DialTimeout:   time.Second,
		ReadTimeout:   time.Second,
		WriteTimeout:  time.Second,
	})
	defer client.Close()
	ctx := context.Background()
	if err := client.Set(ctx, "k", "before", 0).Err(); err != nil {
		t.Fatalf("SET before the failover: %v", err)
	}

	// The loop counts its commands and their errors, in two phases: until
	// the client is seen on the new primary (converged), and after.
	var mu sync.Mutex
	var converged bool
	var before, errsBefore, after, errsAfter int
	var lastErr error
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			err := client.Set(ctx, "loop", i, 0).Err()
			mu.Lock()
			if converged {
				after++
				if err != nil {
					errsAfter++
					lastErr = err
				}
			} else {
				before++
				if err != nil {
					errsBefore++
				}
			}
			mu.Unlock()
		}
	}()
	defer func() {
		close(stop)
		<-done
	}()

	s.Failover(t)
	// The client hears of the new primary from the sentinels (their
	// +switch-master message) and reconnects. Until it does, its writes
	// may still reach the former primary, which Sentinel demotes only
	// later: a write made through the client and read on the new primary
	// directly shows that it has moved.
	direct := redis.NewClient(&redis.Options{Addr: s.MasterAddr()})
	defer direct.Close()
	eventually(t, "the failover client writes to the new primary "+s.MasterAddr(), func() (bool, error) {
		probe := fmt.Sprint(time.Now().UnixNano())
		if err := client.Set(ctx, "probe", probe, 0).Err(); err != nil {
			return false, err
		}
		got, err := direct.Get(ctx, "probe").Result()
		if err != nil {
			return false, err
		}
		return got == probe, fmt.Errorf("the client wrote probe %s, the new primary has %s", probe, got)
	})
	mu.Lock()
	converged = true
	mu.Unlock()

	// Commands after convergence, until enough have run to trust that
	// none fail.
	const want = 200
	eventually(t, fmt.Sprintf("%d commands after the failover", want), func() (bool, error) {
		mu.Lock()
		defer mu.Unlock()
		return after >= want, fmt.Errorf("%d so far", after)
	})
	mu.Lock()
	defer mu.Unlock()
	t.Logf("until the client moved: %d commands, %d errors; after: %d commands, %d errors", before, errsBefore, after, errsAfter)
	if before == 0 {
		t.Error("the loop ran no command during the failover")
	}
	if errsAfter > 0 {
		t.Errorf("%d of %d commands failed after the client moved to the new primary; the last: %v", errsAfter, after, lastErr)
	}
	if got, err := direct.Get(ctx, "k").Result(); err != nil || got != "before" {
		t.Errorf("the new primary has k = %q (%v), want the value written before the failover", got, err)
	}
}
