package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/management/tracing"
)

// bindTracingSettings reads Spring Boot's tracing settings. Spans are
// recorded only with an OTLP endpoint to send them to; Spring's defaults
// are kept otherwise (enabled, 10% of the traces that start here, 10 s per
// export).
func bindTracingSettings(b *config.Binder) tracing.Options {
	return tracing.Options{
		Enabled:     config.Bind(b, "management.tracing.enabled", true, config.Bool),
		Probability: config.Bind(b, "management.tracing.sampling.probability", 0.1, probability),
		Endpoint:    config.Bind(b, "management.otlp.tracing.endpoint", "", urlWithScheme("http", "https")),
		Timeout:     config.Bind(b, "management.otlp.tracing.timeout", 10*time.Second, atLeast100ms),
	}
}

// probability reads a number from 0 to 1.
func probability(s string) (float64, error) {
	p, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || p < 0 || p > 1 {
		return 0, fmt.Errorf("want a number from 0 to 1")
	}
	return p, nil
}
