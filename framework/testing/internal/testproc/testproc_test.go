package testproc

import (
	"net"
	"strconv"
	"testing"
)

func TestFreePortsAreDistinctAndFree(t *testing.T) {
	ports := FreePorts(t, 4)
	seen := map[int]bool{}
	for _, p := range ports {
		if seen[p] {
			t.Fatalf("port %d given twice: %v", p, ports)
		}
		seen[p] = true
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			t.Fatalf("port %d is not free after FreePorts returned it: %v", p, err)
		}
		ln.Close()
	}
}

func TestEndingRecordsSkipFatalAndReturn(t *testing.T) {
	for _, c := range []struct {
		f        func(testing.TB)
		kind     string
		wantsMsg string
	}{
		{func(tb testing.TB) { tb.Skipf("no %s", "tool") }, "skip", "no tool"},
		{func(tb testing.TB) { tb.Fatalf("broken %d", 1) }, "fatal", "broken 1"},
		{func(testing.TB) {}, "run", ""},
	} {
		kind, msg := Ending(t, c.f)
		if kind != c.kind || msg != c.wantsMsg {
			t.Errorf("Ending = %q %q, want %q %q", kind, msg, c.kind, c.wantsMsg)
		}
	}
}
