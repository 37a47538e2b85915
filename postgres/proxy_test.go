package postgres_test

import (
	"net"
	"net/url"
	"sync"
	"testing"
)

// faultProxy stands between a DB and the server, to make the server
// unreachable in the ways a network can, and reachable again, without
// touching the engine.
type faultProxy struct {
	ln     net.Listener
	target string // host:port of the server

	mu    sync.Mutex
	mode  proxyMode
	links map[*link]bool
}

// link is one connection through the proxy; server is nil for one that
// was accepted in a blackhole.
type link struct{ client, server net.Conn }

func (l *link) close() {
	l.client.Close()
	if l.server != nil {
		l.server.Close()
	}
}

type proxyMode int

const (
	proxyUp        proxyMode = iota // forwards
	proxyDown                       // cuts every connection and closes new ones at once, as a stopped server would
	proxyBlackhole                  // forwards nothing and closes nothing on the client's side, as a lost network would
)

// startProxy starts a proxy to the server of serverURL, and stops it when
// the test ends.
func startProxy(t *testing.T, serverURL string) *faultProxy {
	t.Helper()
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{ln: ln, target: u.Host, links: map[*link]bool{}}
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { p.serve(c) })
		}
	})
	t.Cleanup(func() {
		ln.Close()
		p.set(proxyDown)
		wg.Wait()
	})
	return p
}

// url returns dbURL with its host and port replaced by the proxy's.
func (p *faultProxy) url(t *testing.T, dbURL string) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = p.ln.Addr().String()
	return u.String()
}

// set changes the mode. Going down cuts every connection; going into a
// blackhole cuts the server's ends (the server forgets the sessions, as
// it would when the network failed) and leaves the clients' ends open and
// silent; coming back up closes those, whose sessions are gone.
func (p *faultProxy) set(m proxyMode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mode = m
	for l := range p.links {
		switch {
		case m == proxyBlackhole && l.server != nil:
			l.server.Close()
		case m != proxyBlackhole:
			l.close()
			delete(p.links, l)
		}
	}
}

func (p *faultProxy) current() proxyMode {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mode
}

func (p *faultProxy) serve(client net.Conn) {
	l := &link{client: client}
	if p.current() == proxyUp {
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close()
			return
		}
		l.server = server
	}
	p.mu.Lock()
	if p.mode == proxyDown || (p.mode == proxyUp) != (l.server != nil) {
		p.mu.Unlock()
		l.close()
		return
	}
	p.links[l] = true
	p.mu.Unlock()

	var wg sync.WaitGroup
	if l.server != nil {
		wg.Go(func() { p.pipe(client, l.server) })
	}
	wg.Go(func() { p.pipe(l.server, client) })
	wg.Wait()
	p.mu.Lock()
	delete(p.links, l)
	p.mu.Unlock()
	l.close()
}

// pipe copies from src to dst while the proxy is up, and drops what src
// sends otherwise. When src ends, it ends dst too, unless the proxy is a
// blackhole, which ends nothing.
func (p *faultProxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		up := p.current() == proxyUp
		if n > 0 && up && dst != nil {
			if _, err := dst.Write(buf[:n]); err != nil {
				src.Close()
				return
			}
		}
		if err != nil {
			if up && dst != nil {
				dst.Close()
			}
			return
		}
	}
}
