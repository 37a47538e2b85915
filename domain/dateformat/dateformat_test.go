package dateformat

import (
	"testing"
	"time"
)

func TestFormats(t *testing.T) {
	epoch := func() time.Time { return time.Unix(0, 0) }
	afternoon := func() time.Time {
		return time.Date(2026, 11, 25, 15, 4, 5, 678_000_000, time.FixedZone("CET", 3600))
	}
	tests := []struct {
		p    Provider
		want string
	}{
		{Simple{Clock: epoch}, "1/1/70, 12:00 AM"},
		{ISO{Clock: epoch}, "1970-01-01T00:00:00.000+00:00"},
		{Simple{Clock: afternoon}, "11/25/26, 2:04 PM"},
		{ISO{Clock: afternoon}, "2026-11-25T14:04:05.678+00:00"},
	}
	for _, tt := range tests {
		if got := tt.p.Now(); got != tt.want {
			t.Errorf("%T:\ngot  %s\nwant %s", tt.p, got, tt.want)
		}
	}
}
