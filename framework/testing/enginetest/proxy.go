package enginetest

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy forwards TCP connections to an engine, and lets a test take the
// engine away without stopping it: Cut closes every connection and refuses
// new ones at once (as an engine that restarts does), Hang lets nothing
// through any connection, old or new, either way (as a network that drops
// packets does), and Restore forwards again. Partition and Heal are a
// partition whose connections never come back (partition.go).
type Proxy struct {
	target string
	ln     net.Listener

	mu    sync.Mutex
	moved *sync.Cond // signalled when mode changes
	mode  proxyMode
	conns map[net.Conn]struct{}
	links map[*link]struct{} // the connections forwarded or caught, open on the client's side
	wg    sync.WaitGroup
}

type proxyMode int

const (
	forwarding proxyMode = iota
	cut
	hanging
	partitioned
)

// NewProxy listens on a free loopback port and forwards to target
// (host:port) until the test ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{target: target, ln: ln, conns: map[net.Conn]struct{}{}, links: map[*link]struct{}{}}
	p.moved = sync.NewCond(&p.mu)
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() {
		ln.Close()
		p.set(cut)
		p.wg.Wait()
	})
	return p
}

// Addr is the proxy's host:port, to give the service in place of the
// engine's.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Cut closes every connection and refuses new ones until Restore.
func (p *Proxy) Cut() { p.set(cut) }

// Hang passes nothing through any connection, and accepts new ones that
// pass nothing either, until Restore: a client waits until its own
// timeout. A connection that tried to pass anything meanwhile is closed
// at Restore, and what it held is dropped.
func (p *Proxy) Hang() { p.set(hanging) }

// Restore forwards new connections again.
func (p *Proxy) Restore() { p.set(forwarding) }

func (p *Proxy) set(m proxyMode) {
	p.mu.Lock()
	p.mode = m
	p.moved.Broadcast()
	p.mu.Unlock()
	if m == cut {
		p.closeAll()
	}
}

// verdict says what l does with the bytes it read: pass them on, drop
// them (a connection a partition caught, read on only to see when its
// client closes it), or end. While the proxy hangs, it waits, and then
// ends whatever comes next: a connection that hung is dropped with what
// it held, as a network that lost its state drops it, so that nothing a
// client gave up on arrives late.
func (p *Proxy) verdict(l *link) verdict {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == partitioned {
		l.lost = true
	}
	switch {
	case l.lost && p.mode == cut:
		return end
	case l.lost:
		return drop
	case p.mode == forwarding:
		return pass
	case p.mode != hanging:
		return end
	}
	for p.mode == hanging {
		p.moved.Wait()
	}
	return end
}

func (p *Proxy) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
}

// track adds l and its connections to the open ones, unless the proxy
// is no longer forwarding, or l was caught by a partition; it reports
// whether it did.
func (p *Proxy) track(l *link, cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode != forwarding && !l.lost {
		return false
	}
	p.links[l] = struct{}{}
	for _, c := range cs {
		p.conns[c] = struct{}{}
	}
	return true
}

func (p *Proxy) untrack(l *link, cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.links, l)
	for _, c := range cs {
		delete(p.conns, c)
		c.Close()
	}
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return // closed at the test's end
		}
		p.mu.Lock()
		mode := p.mode
		p.mu.Unlock()
		if mode == cut {
			client.Close()
			continue
		}
		p.wg.Add(1)
		go p.forward(client)
	}
}

func (p *Proxy) forward(client net.Conn) {
	defer p.wg.Done()
	l := &link{}
	switch p.verdict(l) {
	case end: // a connection made while hanging waits there, then closes
		client.Close()
		return
	case drop: // made during a partition: it never reaches the engine
		if p.track(l, client) {
			defer p.untrack(l, client)
			io.Copy(io.Discard, client)
		} else {
			client.Close()
		}
		return
	}
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		client.Close()
		return
	}
	if !p.track(l, client, server) {
		client.Close()
		server.Close()
		return
	}
	defer p.untrack(l, client, server)
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		defer func() { done <- struct{}{} }()
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				switch p.verdict(l) {
				case end: // hanging: hold the bytes, and drop them at Restore
					return
				case pass:
					if _, werr := dst.Write(buf[:n]); werr != nil {
						return
					}
				}
			}
			if err != nil {
				return
			}
		}
	}
	go pipe(server, client)
	go pipe(client, server)
	<-done // either side closing ends both
}
