package otlphttp

// The transport's pieces that no exporter's test reaches: the
// Retry-After header's forms, and the URL's credentials beside an
// Authorization header. The exporters' tests
// (framework/management/tracing/otlp, framework/management/metrics/otlp)
// test the rest behind them.

import (
	"net/http"
	"testing"
	"time"
)

// Retry-After is a number of seconds or a date; anything else asks for
// no wait of its own.
func TestRetryAfter(t *testing.T) {
	for v, want := range map[string]time.Duration{
		"": 0, "0": 0, "2": 2 * time.Second, "-1": 0, "soon": 0,
		"99999999999999999999": 0, // not an int64
		"9223372036854775807":  time.Duration(9223372036) * time.Second,
		time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat): 0,
	} {
		if got := retryAfter(v); got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", v, got, want)
		}
	}
	// A date: the time until then, to the second it is written in.
	if got := retryAfter(time.Now().Add(time.Minute).UTC().Format(http.TimeFormat)); got < 58*time.Second || got > time.Minute {
		t.Errorf("retryAfter(a minute from now) = %v", got)
	}
}

// An Authorization header that is set wins over the URL's credentials.
func TestAuthorizationHeaderWinsOverTheURL(t *testing.T) {
	endpoint, headers := credentialsAsHeader("http://user:pw@collector:4318/v1/traces", map[string]string{"authorization": "Bearer t"})
	if endpoint != "http://collector:4318/v1/traces" || len(headers) != 1 || headers["authorization"] != "Bearer t" {
		t.Errorf("%s %v, want the URL without its credentials and the header as set", endpoint, headers)
	}
}
