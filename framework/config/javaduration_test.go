package config_test

import (
	"testing"
	"time"

	"github.com/springport/greeter/framework/config"
)

// TestFormatJavaDuration: durations are written as java.time.Duration's
// toString writes them, as Spring's JSON shows them (httpexchanges'
// timeTaken, the ssl health component's threshold).
func TestFormatJavaDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                                       "PT0S",
		1500 * time.Microsecond:                 "PT0.0015S",
		23 * time.Millisecond:                   "PT0.023S",
		1500 * time.Millisecond:                 "PT1.5S",
		90 * time.Second:                        "PT1M30S",
		90 * time.Minute:                        "PT1H30M",
		2 * time.Hour:                           "PT2H",
		14 * 24 * time.Hour:                     "PT336H",
		time.Hour + 2*time.Minute + time.Second: "PT1H2M1S",
		time.Hour + time.Nanosecond:             "PT1H0.000000001S",
		-90 * time.Minute:                       "PT-1H-30M",
		-500 * time.Millisecond:                 "PT-0.5S",
	} {
		if got := config.FormatJavaDuration(d); got != want {
			t.Errorf("FormatJavaDuration(%v) = %s, want %s", d, got, want)
		}
	}
}
