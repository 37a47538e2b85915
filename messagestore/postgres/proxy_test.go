package postgres_test

import (
	"net/url"
	"testing"

	"github.com/springport/greeter/framework/testing/enginetest"
)

// faultProxy stands between a DB and the server, to make the server
// unreachable in the ways a network can, and reachable again, without
// touching the engine: enginetest's proxy, in the terms of these tests.
type faultProxy struct{ *enginetest.Proxy }

type proxyMode int

const (
	proxyUp        proxyMode = iota // forwards
	proxyDown                       // cuts every connection and closes new ones at once, as a stopped server would
	proxyBlackhole                  // forwards nothing and closes nothing, as a lost network would
)

// startProxy starts a proxy to the server of serverURL, and stops it when
// the test ends.
func startProxy(t *testing.T, serverURL string) *faultProxy {
	t.Helper()
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	return &faultProxy{enginetest.NewProxy(t, u.Host)}
}

// url returns dbURL with its host and port replaced by the proxy's.
func (p *faultProxy) url(t *testing.T, dbURL string) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = p.Addr()
	return u.String()
}

func (p *faultProxy) set(m proxyMode) {
	switch m {
	case proxyUp:
		p.Restore()
	case proxyDown:
		p.Cut()
	case proxyBlackhole:
		p.Hang()
	}
}
