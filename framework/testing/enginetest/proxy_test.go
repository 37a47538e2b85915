package enginetest

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"

	"github.com/springport/greeter/framework/testing/polltest"
)

// echo serves a line-echo server until the test ends and returns its
// address.
func echo(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); io.Copy(c, c) }()
		}
	}()
	return ln.Addr().String()
}

// roundTrip sends a line through c and reads it back, within d.
func roundTrip(c net.Conn, d time.Duration) error {
	c.SetDeadline(time.Now().Add(d))
	if _, err := c.Write([]byte("ping\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err == nil && line != "ping\n" {
		err = errors.New("echoed " + line)
	}
	return err
}

func dial(t *testing.T, addr string) net.Conn {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestProxyCutHangRestore(t *testing.T) {
	p := NewProxy(t, echo(t))
	before := dial(t, p.Addr())
	if err := roundTrip(before, 5*time.Second); err != nil {
		t.Fatalf("forwarding: %v", err)
	}

	p.Cut()
	if err := roundTrip(before, 5*time.Second); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("an open connection after Cut: %v, want it closed at once", err)
	}
	if err := roundTrip(dial(t, p.Addr()), 5*time.Second); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("a new connection after Cut: %v, want it closed at once", err)
	}

	p.Restore()
	open := dial(t, p.Addr())
	if err := roundTrip(open, 5*time.Second); err != nil {
		t.Fatalf("after Restore: %v", err)
	}

	p.Hang()
	// Asserting that nothing arrives needs a wait; it is short, and a
	// proxy that forwarded would answer well within it.
	if err := roundTrip(open, 200*time.Millisecond); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("an open connection while hanging: %v, want no answer", err)
	}
	if err := roundTrip(dial(t, p.Addr()), 200*time.Millisecond); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("a new connection while hanging: %v, want no answer", err)
	}

	p.Restore()
	if err := roundTrip(open, 5*time.Second); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("a connection that hung, after Restore: %v, want it closed", err)
	}
	if err := roundTrip(dial(t, p.Addr()), 5*time.Second); err != nil {
		t.Errorf("a new connection after Restore from hanging: %v", err)
	}
}

func TestProxyPartitionHeal(t *testing.T) {
	p := NewProxy(t, echo(t))
	before := dial(t, p.Addr())
	if err := roundTrip(before, 5*time.Second); err != nil {
		t.Fatalf("forwarding: %v", err)
	}

	p.Partition()
	// As with Hang, asserting that nothing arrives needs a short wait.
	if err := roundTrip(before, 200*time.Millisecond); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("an open connection during the partition: %v, want no answer", err)
	}
	during := dial(t, p.Addr())
	if err := roundTrip(during, 200*time.Millisecond); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("a new connection during the partition: %v, want no answer", err)
	}

	p.Heal()
	if err := roundTrip(dial(t, p.Addr()), 5*time.Second); err != nil {
		t.Errorf("a new connection after Heal: %v", err)
	}
	for name, c := range map[string]net.Conn{"before": before, "during": during} {
		if err := roundTrip(c, 200*time.Millisecond); !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("a connection caught by the partition (%s), after Heal: %v, want it open and silent", name, err)
		}
	}
	if n := p.Caught(); n != 2 {
		t.Errorf("Caught = %d, want 2", n)
	}
	before.Close()
	during.Close()
	// The proxy sees each close when its read of the client ends.
	if !polltest.Poll(5*time.Second, func() bool { return p.Caught() == 0 }) {
		n := p.Caught()
		t.Errorf("Caught = %d after the client closed both, want 0", n)
	}
}
