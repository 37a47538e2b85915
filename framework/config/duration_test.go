package config

import (
	"strings"
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	t.Parallel()
	checkParser(t, "Duration", Duration, []parserCase[time.Duration]{
		// Spring's simple form, any case; a bare number is milliseconds.
		{"30s", 30 * time.Second},
		{"30S", 30 * time.Second},
		{"5m", 5 * time.Minute},
		{"5M", 5 * time.Minute},
		{"2h", 2 * time.Hour},
		{"10d", 10 * 24 * time.Hour},
		{"10D", 10 * 24 * time.Hour},
		{"250ms", 250 * time.Millisecond},
		{"250MS", 250 * time.Millisecond},
		{"100us", 100 * time.Microsecond},
		{"100µs", 100 * time.Microsecond},
		{"100ns", 100},
		{"2000", 2 * time.Second},
		{"+2000", 2 * time.Second},
		{" 5s ", 5 * time.Second},
		// Go's form.
		{"1m30s", 90 * time.Second},
		{"1h2m3s4ms", time.Hour + 2*time.Minute + 3*time.Second + 4*time.Millisecond},
		{"1.5h", 90 * time.Minute},
		{"1d12h", 36 * time.Hour},
		{"1.5d", 36 * time.Hour},
		// ISO-8601, as java.time.Duration reads it.
		{"PT30S", 30 * time.Second},
		{"pt30s", 30 * time.Second},
		{"PT5M", 5 * time.Minute},
		{"P1DT2H", 26 * time.Hour},
		{"P2D", 48 * time.Hour},
		{"PT0.5S", 500 * time.Millisecond},
		{"PT1,25S", 1250 * time.Millisecond},
		{"PT1H-10M", 50 * time.Minute},
		{"+PT1M", time.Minute},
		// Refused: zero, negative, malformed, too large.
		{"0", 0},
		{"0s", 0},
		{"PT0S", 0},
		{"-5s", 0},
		{"-PT5M", 0},
		{"-2000", 0},
		{"soon", 0},
		{"", 0},
		{"s", 0},
		{"5", 5 * time.Millisecond},
		{"5x", 0},
		{"5 s", 0},
		{"--5s", 0},
		{"P", 0},
		{"PT", 0},
		{"P1DT", 0},
		{"P1Y", 0},
		{"PT1.5M", 0},
		{"99999999999999d", 0},
		{"999999999999999999999", 0},
		{"P999999999999999D", 0},
	}, "PT30S", "bare number of milliseconds")
}

func TestDurationOrZero(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Duration{"0": 0, "0s": 0, "0ms": 0, "PT0S": 0, "0d": 0, "5s": 5 * time.Second, "PT1M": time.Minute} {
		if got, err := DurationOrZero(in); err != nil || got != want {
			t.Errorf("DurationOrZero(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"-1s", "-PT1S", "x"} {
		if _, err := DurationOrZero(in); err == nil || !strings.Contains(err.Error(), "want zero or a positive duration") {
			t.Errorf("DurationOrZero(%q): %v, want it refused", in, err)
		}
	}
}

func TestDurationAtLeast(t *testing.T) {
	t.Parallel()
	parse := DurationAtLeast(100 * time.Millisecond)
	if d, err := parse("PT0.1S"); err != nil || d != 100*time.Millisecond {
		t.Errorf("PT0.1S: %v, %v", d, err)
	}
	if _, err := parse("10ns"); err == nil || !strings.Contains(err.Error(), "want at least 100ms") {
		t.Errorf("10ns: %v, want at least 100ms", err)
	}
}

func TestFormatDuration(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		30 * time.Second: "30s", 30 * time.Minute: "30m", 48 * time.Hour: "2d", 90 * time.Second: "90s",
		250 * time.Millisecond: "250ms", 0: "0s", 1500 * time.Microsecond: "1.5ms",
	} {
		got := formatDuration(d)
		if got != want {
			t.Errorf("formatDuration(%v) = %q, want %q", d, got, want)
		}
		if back, err := DurationOrZero(got); err != nil || back != d {
			t.Errorf("%q reads back as %v, %v; want %v", got, back, err, d)
		}
	}
}

// parserCase is one input of a parser and what it gives; the zero value
// means the input is refused.
type parserCase[T comparable] struct {
	in   string
	want T
}

// checkParser runs parse over cases. A refused input must be given a
// reason that contains each of reason: the accepted forms.
func checkParser[T comparable](t *testing.T, name string, parse func(string) (T, error), cases []parserCase[T], reason ...string) {
	t.Helper()
	var zero T
	for _, tt := range cases {
		got, err := parse(tt.in)
		if tt.want == zero {
			if err == nil {
				t.Errorf("%s(%q) = %v, want it refused", name, tt.in, got)
			}
			for _, r := range reason {
				if err != nil && !strings.Contains(err.Error(), r) {
					t.Errorf("%s(%q): the reason %q does not say %q", name, tt.in, err, r)
				}
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s(%q):\ngot  %v, %v\nwant %v", name, tt.in, got, err, tt.want)
		}
	}
}
