package metrics

import "testing"

// TestSystemTicks: busy is user, nice, system, irq and softirq, as
// HotSpot counts it; idle, I/O wait and steal are not busy, but are in
// the total; guest time is in user already and counted once.
func TestSystemTicks(t *testing.T) {
	busy, total, ok := systemTicks([]byte("cpu  100 20 30 400 50 6 7 80 9 1"))
	if !ok || busy != 100+20+30+6+7 || total != 100+20+30+400+50+6+7+80 {
		t.Errorf("systemTicks = %d, %d, %v; want 163, 693, true", busy, total, ok)
	}
	for _, line := range []string{"", "cpu0 1 2 3 4 5 6 7 8", "cpu  1 2 3", "cpu  1 2 x 4 5 6 7 8"} {
		if _, _, ok := systemTicks([]byte(line)); ok {
			t.Errorf("systemTicks(%q) read", line)
		}
	}
}
