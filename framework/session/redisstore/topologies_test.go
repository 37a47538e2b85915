package redisstore_test

// The store's behaviours on each way Redis is deployed: one server (the
// machine's, GREETER_TEST_REDIS_URL), a Redis Cluster of three primaries,
// and a primary with a replica behind Sentinel, the last two started by
// the test (framework/testing/redistest). One function checks the behaviours, so
// that every topology is held to the same ones.

import (
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/component/sessiontest"
	"github.com/springport/greeter/framework/session/redisstore"
	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/framework/testing/redistest"

	"github.com/springport/greeter/framework/testing/polltest"
)

// topology is one deployment of Redis that a test started or found:
// opts reach it; clusterNodes, for a Cluster, are its primaries, and
// primary and replica, behind Sentinel, its servers, to look at
// directly.
type topology struct {
	opts             redisstore.Options
	clusterNodes     []string
	primary, replica string
}

// topologies start (or find) each deployment for a test, which is
// skipped, saying why, when it cannot run here (see enginetest and
// redistest).
var topologies = []struct {
	name  string
	start func(t *testing.T) topology
}{
	{"Standalone", func(t *testing.T) topology {
		url, prefix := enginetest.Redis(t)
		return topology{opts: redisstore.Options{URL: url, Namespace: prefix + "app:session"}}
	}},
	{"Cluster", func(t *testing.T) topology {
		c := redistest.Cluster(t)
		return topology{opts: redisstore.Options{Cluster: redisstore.Cluster{Nodes: c.Addrs()}}, clusterNodes: c.Addrs()}
	}},
	{"Sentinel", func(t *testing.T) topology {
		s := redistest.Sentinel(t)
		return topology{opts: redisstore.Options{Sentinel: redisstore.Sentinel{Master: s.MasterName(), Nodes: s.SentinelAddrs()}},
			primary: s.MasterAddr(), replica: s.ReplicaAddr()}
	}},
}

// openAt opens a store with opts as they are (no URL of the machine's
// Redis added, as open does), and closes it when the test ends.
func openAt(t testing.TB, opts redisstore.Options) *redisstore.Store {
	t.Helper()
	s, err := redisstore.Open(t.Context(), opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func TestTopologies(t *testing.T) {
	for _, tp := range topologies {
		t.Run(tp.name, func(t *testing.T) {
			t.Parallel()
			behaviours(t, tp.start(t))
		})
	}
}

// behaviours checks the store's behaviours on the deployment that top
// reaches.
func behaviours(t *testing.T, top topology) {
	with := func(idle time.Duration) redisstore.Options {
		o := top.opts
		o.IdleTimeout = idle
		return o
	}
	// The contract every session store keeps (create, touch, delete, idle
	// expiry reported by the sweeper, saves that never revive an ended
	// session, racing saves), as the in-memory store keeps it.
	t.Run("Contract", func(t *testing.T) {
		sessiontest.Run(t, func(t *testing.T, idle time.Duration) component.SessionStore {
			o := with(idle)
			o.SweepInterval = 50 * time.Millisecond
			return openAt(t, o)
		})
	})
	t.Run("SharedContract", func(t *testing.T) {
		sessiontest.RunShared(t, func(t *testing.T) component.SharedSessionStore { return openAt(t, with(time.Hour)) })
	})

	// Redis's own expiry ends a session idle for the idle timeout, state
	// and all, and a save that comes later does not bring it back.
	t.Run("Expiry", func(t *testing.T) {
		const idle = 300 * time.Millisecond
		s := openAt(t, with(idle))
		ended := watch(s)
		id := sessiontest.Create(t, s)
		if err := s.SaveState(t.Context(), id, "cart", []byte("apples")); err != nil {
			t.Fatal(err)
		}
		if data, ok, err := s.LoadState(t.Context(), id, "cart"); err != nil || !ok || string(data) != "apples" {
			t.Fatalf("LoadState right after SaveState = %q, %t, %v; want apples", data, ok, err)
		}
		// LoadState does not restart the idle timeout: it only looks.
		waitFor(t, 10*time.Second, "Redis expires a session idle for "+idle.String(), func() (bool, error) {
			_, ok, err := s.LoadState(t.Context(), id, "cart")
			return err == nil && !ok, err
		})
		if err := s.SaveState(t.Context(), id, "cart", []byte("late")); err != nil {
			t.Fatal(err)
		}
		if got := sessiontest.Touch(t, s, id); got {
			t.Errorf("a save after the session expired brought it back")
		}
		waitFor(t, 10*time.Second, "the store reports the expired session ended", func() (bool, error) {
			return len(ended.list()) == 1 && ended.list()[0] == id, fmt.Errorf("reported %q", ended.list())
		})
	})

	// Two stores, as two instances of the service: the state one saves,
	// the other loads and replaces; an end by one is an end for both,
	// and late saves through either do not revive it.
	t.Run("TwoStores", func(t *testing.T) {
		a, b := openAt(t, with(time.Hour)), openAt(t, with(time.Hour))
		id := sessiontest.Create(t, a)
		if got, err := a.SaveStateIfAbsent(t.Context(), id, "cart", []byte("from a")); err != nil || string(got) != "from a" {
			t.Fatalf("SaveStateIfAbsent on a = %q, %v", got, err)
		}
		if got, err := b.SaveStateIfAbsent(t.Context(), id, "cart", []byte("from b")); err != nil || string(got) != "from a" {
			t.Errorf("SaveStateIfAbsent on b = %q, %v; want a's state, saved first", got, err)
		}
		if err := b.SaveState(t.Context(), id, "cart", []byte("replaced by b")); err != nil {
			t.Fatal(err)
		}
		if data, ok, err := a.LoadState(t.Context(), id, "cart"); err != nil || !ok || string(data) != "replaced by b" {
			t.Errorf("LoadState on a = %q, %t, %v; want b's replacement", data, ok, err)
		}
		if err := b.Delete(t.Context(), id); err != nil {
			t.Fatal(err)
		}
		if err := a.SaveState(t.Context(), id, "cart", []byte("late")); err != nil {
			t.Fatal(err)
		}
		if got, err := a.SaveStateIfAbsent(t.Context(), id, "other", []byte("late")); err != nil || string(got) != "late" {
			t.Errorf("SaveStateIfAbsent in an ended session = %q, %v; want its own state back", got, err)
		}
		for name, s := range map[string]*redisstore.Store{"a": a, "b": b} {
			if sessiontest.Touch(t, s, id) {
				t.Errorf("a session ended by b and saved in late by a is live on %s", name)
			}
			if data, ok, err := s.LoadState(t.Context(), id, "cart"); ok || err != nil {
				t.Errorf("LoadState on %s of the ended session = %q, %t, %v; want nothing", name, data, ok, err)
			}
		}
	})

	if top.clusterNodes != nil {
		t.Run("OneSlotPerSession", func(t *testing.T) { oneSlotPerSession(t, openAt(t, with(time.Hour)), top.clusterNodes) })
	}
	if top.primary != "" {
		t.Run("OnThePrimaryAndReplicated", func(t *testing.T) { onThePrimary(t, openAt(t, with(time.Hour)), top.primary, top.replica) })
	}
}

// onThePrimary checks, behind Sentinel, that the store writes to the
// primary that the Sentinels name, and that the replica, which a
// failover would promote, receives the session.
func onThePrimary(t *testing.T, s *redisstore.Store, primary, replica string) {
	ctx := t.Context()
	id := sessiontest.Create(t, s)
	if err := s.SaveState(ctx, id, "cart", []byte("apples")); err != nil {
		t.Fatal(err)
	}
	for _, addr := range []string{primary, replica} {
		c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, Protocol: 2})
		defer c.Close()
		waitFor(t, 10*time.Second, "the session's state on "+addr, func() (bool, error) {
			got, err := c.HGet(ctx, s.Key(id), "state:cart").Result()
			return err == nil && got == "apples", fmt.Errorf("HGET: %q, %v", got, err)
		})
	}
}

// oneSlotPerSession checks, on a Cluster, that each session's key is in
// the slot of its id alone (the hash tag), held by one node, so that the
// scripts, which name the key, run on that node; and that sessions are
// spread over all three primaries, as their random ids spread them.
func oneSlotPerSession(t *testing.T, s *redisstore.Store, nodes []string) {
	ctx := t.Context()
	direct := make([]*redis.Client, len(nodes))
	for i, addr := range nodes {
		// No retries and no redirections followed: each node answers for
		// itself.
		direct[i] = redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, Protocol: 2})
		defer direct[i].Close()
	}
	const sessions = 60 // a node holds none with probability 3·(2/3)^60, about 10⁻¹⁰
	perNode := make([]int, len(nodes))
	for range sessions {
		id := sessiontest.Create(t, s)
		// Two states and a replacement: the scripts run on the session's
		// node, or Redis would refuse them (CROSSSLOT, or MOVED).
		for _, name := range []string{"cart", "visit"} {
			if _, err := s.SaveStateIfAbsent(ctx, id, name, []byte(name)); err != nil {
				t.Fatalf("SaveStateIfAbsent %s: %v", name, err)
			}
		}
		if err := s.SaveState(ctx, id, "cart", []byte("replaced")); err != nil {
			t.Fatalf("SaveState: %v", err)
		}
		key := s.Key(id)
		slot, err := direct[0].ClusterKeySlot(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		if idSlot, err := direct[0].ClusterKeySlot(ctx, id).Result(); err != nil || idSlot != slot {
			t.Errorf("key %s is in slot %d, its id in %d (%v); want the id's: the braces are its hash tag", key, slot, idSlot, err)
		}
		holders := 0
		for i, c := range direct {
			fields, err := c.HGetAll(ctx, key).Result()
			if err != nil {
				// Another node's slot: it answers MOVED to the holder.
				continue
			}
			if len(fields) == 0 {
				continue
			}
			holders++
			perNode[i]++
			if fields["state:cart"] != "replaced" || fields["state:visit"] != "visit" || fields["created"] == "" {
				t.Errorf("node %s holds session %s as %q; want created, state:cart replaced, state:visit", nodes[i], id, fields)
			}
		}
		if holders != 1 {
			t.Errorf("%d nodes hold session %s; want one", holders, id)
		}
	}
	t.Logf("%d sessions over the nodes %v: %v", sessions, nodes, perNode)
	for i, n := range perNode {
		if n == 0 {
			t.Errorf("node %s holds none of %d sessions (%v); want them spread over every primary", nodes[i], sessions, perNode)
		}
	}
}

// waitFor polls check until it reports done, failing the test when
// patience runs out first, with check's last explanation.
func waitFor(t *testing.T, patience time.Duration, what string, check func() (bool, error)) {
	t.Helper()
	polltest.Until(t, patience, what, func() error {
		if done, why := check(); !done {
			return fmt.Errorf("not yet: %v", why)
		}
		return nil
	})
}

// TestSentinelFailoverWhileServing promotes the replica (SENTINEL
// FAILOVER) while two stores serve sessions in a loop: one creates a
// session and saves its state, the other loads it, as two instances
// behind a load balancer. During the switch an operation may fail, and
// then only as an outage of Redis (a 503 for the request); a write
// acknowledged during the switch may be lost, as Redis replicates
// asynchronously, and is counted. Every state saved before the failover
// is kept, and once the stores have moved to the new primary every
// operation succeeds again.
func TestSentinelFailoverWhileServing(t *testing.T) {
	t.Parallel()
	s := redistest.Sentinel(t)
	opts := redisstore.Options{Sentinel: redisstore.Sentinel{Master: s.MasterName(), Nodes: s.SentinelAddrs()},
		IdleTimeout: time.Hour, ConnectTimeout: time.Second, Timeout: time.Second}
	a, b := openAt(t, opts), openAt(t, opts)

	// The loop's phases: before Failover is called, while it runs, after
	// it returned until both stores are seen on the new primary, and
	// after that.
	const (
		before = iota
		switching
		returned
		moved
		phases
	)
	phaseNames := [phases]string{"before the failover", "during the failover", "until the stores moved", "after the stores moved"}
	var phase atomic.Int32

	type write struct {
		id, state string
		phase     int32 // of the iteration that created and saved it
	}
	var (
		mu         sync.Mutex
		writes     []write
		ops        [phases]int
		errs       [phases]int
		stale      [phases]int // loads that did not find the state just saved
		notOutages []error
	)
	fail := func(p int32, op string, err error) {
		mu.Lock()
		defer mu.Unlock()
		errs[p]++
		if !isOutage(err) {
			notOutages = append(notOutages, fmt.Errorf("%s %s: %w", phaseNames[p], op, err))
		}
	}
	ctx := t.Context()
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			// An iteration belongs to the phase in which it started and
			// ended; one that spans two (a session created on the
			// former primary and saved in on the new one, say) belongs
			// to the switch.
			start := phase.Load()
			span := func() int32 {
				if p := phase.Load(); p != start {
					return switching
				}
				return start
			}
			mu.Lock()
			ops[start]++
			mu.Unlock()
			id, err := a.Create(ctx)
			if err != nil {
				fail(span(), "Create", err)
				continue
			}
			state := "state " + strconv.Itoa(i)
			if err := a.SaveState(ctx, id, "counter", []byte(state)); err != nil {
				fail(span(), "SaveState", err)
				continue
			}
			mu.Lock()
			writes = append(writes, write{id, state, span()})
			mu.Unlock()
			data, ok, err := b.LoadState(ctx, id, "counter")
			switch {
			case err != nil:
				fail(span(), "LoadState", err)
			case !ok || string(data) != state:
				mu.Lock()
				stale[span()]++
				mu.Unlock()
			}
		}
	}()
	stopLoop := sync.OnceFunc(func() {
		close(stop)
		<-done
	})
	defer stopLoop()

	count := func(p int32) int {
		mu.Lock()
		defer mu.Unlock()
		return ops[p]
	}
	waitFor(t, 10*time.Second, "the loop runs before the failover", func() (bool, error) {
		return count(before) >= 50, fmt.Errorf("%d operations", count(before))
	})
	oldPrimary := s.MasterAddr()
	phase.Store(switching)
	start := time.Now()
	s.Failover(t)
	failedOver := time.Since(start)
	phase.Store(returned)
	if s.MasterAddr() == oldPrimary {
		t.Fatalf("the primary is still %s after Failover", oldPrimary)
	}

	// Each store has moved once a session it creates is on the new
	// primary, looked at directly.
	primary := redis.NewClient(&redis.Options{Addr: s.MasterAddr(), MaxRetries: -1, Protocol: 2})
	defer primary.Close()
	start = time.Now()
	for name, st := range map[string]*redisstore.Store{"a": a, "b": b} {
		waitFor(t, 10*time.Second, "store "+name+" writes to the new primary "+s.MasterAddr(), func() (bool, error) {
			id, err := st.Create(ctx)
			if err != nil {
				return false, err
			}
			if err := st.SaveState(ctx, id, "probe", []byte(name)); err != nil {
				return false, err
			}
			got, err := primary.HGet(ctx, st.Key(id), "state:probe").Result()
			return err == nil && got == name, fmt.Errorf("the new primary has %q (%v)", got, err)
		})
	}
	moving := time.Since(start)
	phase.Store(moved)
	waitFor(t, 10*time.Second, "the loop runs after the stores moved", func() (bool, error) {
		return count(moved) >= 200, fmt.Errorf("%d operations", count(moved))
	})
	stopLoop()

	for p := range int32(phases) {
		t.Logf("%s: %d iterations began; %d failed (outages), %d loads missed the state just saved (an iteration spanning two phases counts in the switch)", phaseNames[p], ops[p], errs[p], stale[p])
	}
	t.Logf("Failover took %v; the stores were on the new primary %v after it returned", failedOver, moving)
	for _, err := range notOutages {
		t.Errorf("an error that is no outage of Redis: %v", err)
	}
	if ops[switching] == 0 {
		t.Errorf("the loop ran nothing during the failover")
	}
	if errs[before] != 0 || stale[before] != 0 || errs[moved] != 0 || stale[moved] != 0 {
		t.Errorf("with one primary serving, %d and %d operations failed and %d and %d loads missed the state just saved (before the failover, after the stores moved); want none",
			errs[before], errs[moved], stale[before], stale[moved])
	}
	// Every state acknowledged before the failover was on the replica
	// before it was promoted, and so is kept; one acknowledged after the
	// stores moved is on the new primary. One acknowledged during the
	// switch may have gone to the former primary, and been lost with it.
	var lost [phases]int
	for _, w := range writes {
		data, ok, err := b.LoadState(ctx, w.id, "counter")
		if err != nil {
			t.Fatalf("LoadState after the failover: %v", err)
		}
		if !ok || string(data) != w.state {
			lost[w.phase]++
		}
	}
	t.Logf("states lost, by the phase of their iteration (%v): %v", phaseNames, lost)
	if lost[before] != 0 || lost[moved] != 0 {
		t.Errorf("%d states saved before the failover and %d after the stores moved are lost; want none", lost[before], lost[moved])
	}
}
