package redistest

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// ClusterServers is a Redis Cluster of three primaries without replicas:
// the 16384 hash slots that keys map to are shared among three servers,
// and a client must send each key's commands to the server that holds
// its slot (a server asked for another's key answers MOVED with the
// right one).
type ClusterServers struct {
	nodes []*process
}

// clusterCreateTimeout bounds redis-cli --cluster create, which assigns
// the slots and waits until the nodes have met.
const clusterCreateTimeout = time.Minute

// Cluster starts three redis-server processes in cluster mode on free
// loopback ports, joins them into one cluster with redis-cli, and returns
// once every node reports the cluster healthy (all slots served, all three
// nodes known). The servers are killed when the test ends.
func Cluster(t testing.TB) *ClusterServers {
	t.Helper()
	requireBinaries(t)
	dir := t.TempDir()
	c := &ClusterServers{}
	for i := range 3 {
		name := "cluster node " + strconv.Itoa(i+1)
		node := start(t, name, dir, 2, nil, func(ports []int) []string {
			port := strconv.Itoa(ports[0])
			return []string{
				"--port", port,
				"--bind", "127.0.0.1",
				"--cluster-enabled", "yes",
				// The nodes talk among themselves on the cluster bus, by
				// default on the client port + 10000, which does not
				// exist for client ports above 55535; the test chooses a
				// second free port instead.
				"--cluster-port", strconv.Itoa(ports[1]),
				"--cluster-config-file", filepath.Join(dir, "nodes-"+port+".conf"),
				// No persistence: nothing to keep, and nothing to wait for.
				"--save", "",
				"--appendonly", "no",
				"--dir", dir,
			}
		})
		c.nodes = append(c.nodes, node)
	}
	args := []string{"--cluster", "create"}
	args = append(args, c.Addrs()...)
	args = append(args, "--cluster-yes")
	ctx, cancel := context.WithTimeout(context.Background(), clusterCreateTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "redis-cli", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli %v: %v\n%s", args, err, out)
	}
	for _, node := range c.nodes {
		c.waitHealthy(t, node)
	}
	return c
}

// waitHealthy waits until node reports the cluster healthy and complete,
// so that a client that asks it for the slots' owners gets all of them.
func (c *ClusterServers) waitHealthy(t testing.TB, node *process) {
	t.Helper()
	client := node.client()
	defer client.Close()
	eventually(t, node.name+" reports the cluster healthy", func() (bool, error) {
		info, err := client.ClusterInfo(context.Background()).Result()
		if err != nil {
			return false, err
		}
		state := infoField(info, "cluster_state")
		known := infoField(info, "cluster_known_nodes")
		slots := infoField(info, "cluster_slots_ok")
		if state == "ok" && known == strconv.Itoa(len(c.nodes)) && slots == "16384" {
			return true, nil
		}
		return false, fmt.Errorf("cluster_state:%s cluster_known_nodes:%s cluster_slots_ok:%s", state, known, slots)
	})
}

// Addrs returns the nodes' host:port addresses, for a cluster client's
// seed list (app.data.redis.cluster.nodes).
func (c *ClusterServers) Addrs() []string {
	addrs := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		addrs[i] = n.addr
	}
	return addrs
}
