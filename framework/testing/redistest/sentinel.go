package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// MasterName is the name under which the sentinels watch the primary,
// for app.data.redis.sentinel.master.
const MasterName = "mymaster"

// sentinelCount is how many sentinels watch the primary: three, as
// deployments run them, so that a client's list of sentinels has more
// than one entry to try.
const sentinelCount = 3

// SentinelServers is a primary Redis with one replica, watched by three
// Redis Sentinels. Sentinel is Redis's high-availability monitor: clients
// ask a sentinel where the primary is (by MasterName), and when the
// primary fails the sentinels promote the replica and tell clients, who
// reconnect to it.
type SentinelServers struct {
	sentinels []*process

	mu      sync.Mutex // guards master and replica, which Failover swaps
	master  *process
	replica *process
}

// Sentinel starts a primary, a replica of it, and three sentinels watching
// the primary, on free loopback ports, and returns once the replica is in
// sync and every sentinel names the primary and knows the replica, so
// that a failover can be asked for at once. The servers are killed when
// the test ends.
func Sentinel(t testing.TB) *SentinelServers {
	t.Helper()
	requireBinaries(t)
	dir := t.TempDir()
	s := &SentinelServers{}
	plain := func(ports []int) []string {
		return []string{
			"--port", strconv.Itoa(ports[0]),
			"--bind", "127.0.0.1",
			"--save", "",
			"--appendonly", "no",
			"--dir", dir,
			// A primary waits 5 s by default before it streams its data
			// to a new replica, for more replicas to share the stream:
			// here there is one, and each server is the primary after a
			// failover.
			"--repl-diskless-sync-delay", "0",
		}
	}
	s.master = start(t, "primary", dir, 1, nil, plain)
	host, port, _ := net.SplitHostPort(s.master.addr)
	s.replica = start(t, "replica", dir, 1, nil, func(ports []int) []string {
		return append(plain(ports), "--replicaof", host, port)
	})
	s.waitReplicating(t)

	for i := range sentinelCount {
		name := "sentinel " + strconv.Itoa(i+1)
		sentinel := start(t, name, dir, 1, nil, func(ports []int) []string {
			// Sentinel reads its configuration from a file, and rewrites
			// it with what it learns (the replicas, the other sentinels,
			// the current primary), so each has its own.
			conf := filepath.Join(dir, "sentinel-"+strconv.Itoa(ports[0])+".conf")
			text := strings.Join([]string{
				"port " + strconv.Itoa(ports[0]),
				"bind 127.0.0.1",
				"dir " + dir,
				// Quorum 1: one sentinel's view that the primary is down
				// is enough to start a failover.
				"sentinel monitor " + MasterName + " " + host + " " + port + " 1",
				// A primary silent for 1 s is down, and a failover that
				// has not completed in 3 s is retried, so that tests of
				// failures finish in seconds rather than the defaults'
				// minutes.
				"sentinel down-after-milliseconds " + MasterName + " 1000",
				"sentinel failover-timeout " + MasterName + " 3000",
				"",
			}, "\n")
			if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			return []string{conf, "--sentinel"}
		})
		s.sentinels = append(s.sentinels, sentinel)
	}
	for _, sentinel := range s.sentinels {
		s.waitWatching(t, sentinel, s.master.addr, s.replica.addr)
	}
	return s
}

// SentinelAddrs returns the sentinels' host:port addresses, for
// app.data.redis.sentinel.nodes.
func (s *SentinelServers) SentinelAddrs() []string {
	addrs := make([]string, len(s.sentinels))
	for i, p := range s.sentinels {
		addrs[i] = p.addr
	}
	return addrs
}

// MasterName returns the name under which the sentinels watch the
// primary: MasterName.
func (s *SentinelServers) MasterName() string { return MasterName }

// MasterAddr returns the host:port of the current primary.
func (s *SentinelServers) MasterAddr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.master.addr
}

// ReplicaAddr returns the host:port of the current replica.
func (s *SentinelServers) ReplicaAddr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.replica.addr
}

// sentinelTimeout bounds each wait on the sentinels: readyTimeout, and
// Redis's 30 s TILT period on top. A sentinel whose timer is late by more
// than 2 s, as on a machine loaded past its cores, enters TILT and acts on
// nothing (no failover, no new primary named) for 30 s before it goes on.
const sentinelTimeout = readyTimeout + 30*time.Second

// Failover asks a sentinel to promote the replica (SENTINEL FAILOVER, as
// an operator does before maintenance of the primary's machine), and
// returns once every sentinel names the former replica as the primary and
// it answers as one. Every write the primary took before the call is on
// the replica before it is promoted; writes made during the failover may
// be lost, as Redis's asynchronous replication loses them. The former
// primary is made a replica of the new one by the sentinels about ten
// seconds later, and they see it report itself one at their next look
// (every ten seconds): a second Failover in the same test waits for both,
// about twenty seconds.
func (s *SentinelServers) Failover(t testing.TB) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	// A failover that does not complete is explained by the servers' own
	// accounts of it.
	done := false
	defer func() {
		if !done {
			for _, p := range append([]*process{s.master, s.replica}, s.sentinels...) {
				t.Logf("%s output:\n%s", p.name, p.output())
			}
		}
	}()
	// After a failover the former primary rejoins as a replica some
	// seconds later. Until it is in sync and every sentinel has seen it
	// report itself a replica, a sentinel that still remembers it as a
	// primary would demote it again in the middle of its promotion, and
	// the failover would be abandoned.
	s.waitReplicating(t)
	for _, sentinel := range s.sentinels {
		s.waitWatching(t, sentinel, s.master.addr, s.replica.addr)
	}
	sentinel := s.sentinels[0].client()
	defer sentinel.Close()
	eventuallyWithin(t, sentinelTimeout, "a sentinel accepts SENTINEL FAILOVER "+MasterName, func() (bool, error) {
		err := sentinel.Do(context.Background(), "SENTINEL", "FAILOVER", MasterName).Err()
		// NOGOODSLAVE: no replica the sentinel deems fit yet; INPROG: a
		// failover is still running. Both pass.
		if err != nil && (strings.HasPrefix(err.Error(), "NOGOODSLAVE") || strings.HasPrefix(err.Error(), "INPROG")) {
			return false, err
		}
		if err != nil {
			t.Fatalf("SENTINEL FAILOVER %s: %v", MasterName, err)
		}
		return true, nil
	})
	promoted := s.replica
	for _, sentinel := range s.sentinels {
		client := sentinel.client()
		defer client.Close()
		eventuallyWithin(t, sentinelTimeout, sentinel.name+" names "+promoted.addr+" as the primary", func() (bool, error) {
			addr, err := client.Do(context.Background(), "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MasterName).StringSlice()
			if err != nil {
				return false, err
			}
			if len(addr) != 2 || net.JoinHostPort(addr[0], addr[1]) != promoted.addr {
				return false, fmt.Errorf("it names %v", addr)
			}
			return true, nil
		})
	}
	client := promoted.client()
	defer client.Close()
	eventuallyWithin(t, sentinelTimeout, promoted.addr+" answers as the primary", func() (bool, error) {
		info, err := client.Info(context.Background(), "replication").Result()
		if err != nil {
			return false, err
		}
		if role := infoField(info, "role"); role != "master" {
			return false, fmt.Errorf("role:%s", role)
		}
		return true, nil
	})
	s.master, s.replica = promoted, s.master
	done = true
}

// waitReplicating waits until the replica is connected to the primary
// and has every write the primary took before the call. The caller holds s.mu or has
// not shared s yet.
func (s *SentinelServers) waitReplicating(t testing.TB) {
	t.Helper()
	master, replica := s.master.client(), s.replica.client()
	defer master.Close()
	defer replica.Close()
	_, port, _ := net.SplitHostPort(s.replica.addr)
	eventuallyWithin(t, sentinelTimeout, s.replica.addr+" replicates "+s.master.addr, func() (bool, error) {
		info, err := replica.Info(context.Background(), "replication").Result()
		if err != nil {
			return false, err
		}
		if role, link := infoField(info, "role"), infoField(info, "master_link_status"); role != "slave" || link != "up" {
			return false, fmt.Errorf("the replica reports role:%s master_link_status:%s", role, link)
		}
		info, err = master.Info(context.Background(), "replication").Result()
		if err != nil {
			return false, err
		}
		// slave0:ip=127.0.0.1,port=P,state=online,offset=...,lag=0
		slave := infoField(info, "slave0")
		if !strings.Contains(slave, "port="+port+",") || !strings.Contains(slave, "state=online") {
			return false, fmt.Errorf("the primary reports slave0:%s", slave)
		}
		// Online is not yet in sync: after the initial copy the primary
		// holds back later writes until the replica's first
		// acknowledgement, up to a second later. WAIT returns how many
		// replicas have acknowledged every write made before it.
		acked, err := master.Wait(context.Background(), 1, 100*time.Millisecond).Result()
		if err != nil {
			return false, err
		}
		if acked < 1 {
			return false, fmt.Errorf("the replica has not acknowledged the primary's writes (slave0:%s)", slave)
		}
		return true, nil
	})
}

// waitWatching waits until sentinel names master as the primary and
// lists replica as a replica of it that reports itself one and is
// connected: what it needs to be able to fail over.
func (s *SentinelServers) waitWatching(t testing.TB, sentinel *process, master, replica string) {
	t.Helper()
	client := redis.NewSentinelClient(&redis.Options{Addr: sentinel.addr, MaxRetries: -1, Protocol: 2, DisableIdentity: true})
	defer client.Close()
	eventuallyWithin(t, sentinelTimeout, sentinel.name+" watches "+master+" and its replica "+replica, func() (bool, error) {
		ctx := context.Background()
		addr, err := client.GetMasterAddrByName(ctx, MasterName).Result()
		if err != nil {
			return false, err
		}
		if len(addr) != 2 || net.JoinHostPort(addr[0], addr[1]) != master {
			return false, fmt.Errorf("it names %v as the primary", addr)
		}
		replicas, err := client.Replicas(ctx, MasterName).Result()
		if err != nil {
			return false, err
		}
		for _, r := range replicas {
			if net.JoinHostPort(r["ip"], r["port"]) != replica {
				continue
			}
			if r["flags"] == "slave" && r["role-reported"] == "slave" && r["master-link-status"] == "ok" &&
				net.JoinHostPort(r["master-host"], r["master-port"]) == master {
				return true, nil
			}
			return false, fmt.Errorf("it lists the replica with flags %q, role-reported %q, master %s:%s, master-link-status %q",
				r["flags"], r["role-reported"], r["master-host"], r["master-port"], r["master-link-status"])
		}
		return false, fmt.Errorf("it lists no replica at %s: %v", replica, replicas)
	})
}
