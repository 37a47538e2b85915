package enginetest

// A partition that heals without its connections: the network between
// the service and the engine stops carrying anything, in either
// direction, and closes nothing, so that every connection stays open,
// half-open from the service's side; when it heals, new connections go
// through, but the old ones never do again, as when a stateful firewall,
// a NAT or a load balancer on the path lost their flows: the engine's
// side is gone, and what the service sends on them is silently dropped,
// with nothing sent back to say so. Only the service giving them up ends
// them.

// link is one connection through the proxy; lost, once a partition
// caught it, is guarded by the proxy's mu.
type link struct{ lost bool }

// verdict is what a connection does with the bytes it read.
type verdict int

const (
	pass verdict = iota // forward them
	drop                // drop them, and go on reading until the client closes
	end                 // close the connection
)

// Partition passes nothing through any connection, old or new, and
// closes none: every connection open now or made until Heal is caught,
// and stays silent for good, until its client closes it or the test
// ends.
func (p *Proxy) Partition() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mode = partitioned
	for l := range p.links {
		l.lost = true
	}
	p.moved.Broadcast()
}

// Heal forwards new connections again; the ones the partition caught
// stay silent.
func (p *Proxy) Heal() { p.set(forwarding) }

// Caught is how many connections a partition caught that their client
// still holds open: a pool that gave them up has none left.
func (p *Proxy) Caught() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for l := range p.links {
		if l.lost {
			n++
		}
	}
	return n
}
