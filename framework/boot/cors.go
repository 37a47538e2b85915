package boot

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// CORS settings: which pages of other origins a browser lets call the
// service (see dispatch/cors.go). Spring Boot reads them for the
// management endpoints only (management.endpoints.web.cors.*, its
// CorsEndpointProperties); a Spring MVC application declares its own in
// code (@CrossOrigin, WebMvcConfigurer.addCorsMappings). Here the
// service's routes and its OpenAPI document take the same keys under
// app.web.cors, a setting of the framework's. Either is off until its
// allowed-origins or allowed-origin-patterns is set, as in Spring.
const (
	managementCORSPrefix = "management.endpoints.web.cors."
	serviceCORSPrefix    = "app.web.cors."
)

// defaultCORSMaxAge is how long a browser may cache a preflight's answer
// unless set: Spring's 30 minutes.
const defaultCORSMaxAge = 1800 * time.Second

// corsSettings are the two CORS policies; nil when off.
type corsSettings struct {
	management *dispatch.CORS
	service    *dispatch.CORS
}

func bindCORSSettings(b *config.Binder) corsSettings {
	return corsSettings{management: bindCORS(b, managementCORSPrefix), service: bindCORS(b, serviceCORSPrefix)}
}

// bindCORS reads one CORS policy under prefix; nil when it allows no
// origin. Credentials for every origin are refused, naming
// allow-credentials, as Spring refuses them (when the first request
// comes; here at start-up).
func bindCORS(b *config.Binder, prefix string) *dispatch.CORS {
	c := &dispatch.CORS{
		AllowedOrigins:        config.Bind(b, prefix+"allowed-origins", nil, config.List),
		AllowedOriginPatterns: config.Bind(b, prefix+"allowed-origin-patterns", nil, config.List),
		AllowedMethods:        config.Bind(b, prefix+"allowed-methods", nil, config.List),
		AllowedHeaders:        config.Bind(b, prefix+"allowed-headers", nil, config.List),
		ExposedHeaders:        config.Bind(b, prefix+"exposed-headers", nil, config.List),
		AllowCredentials:      config.Bind(b, prefix+"allow-credentials", false, config.Bool),
		MaxAge:                config.Bind(b, prefix+"max-age", defaultCORSMaxAge, corsMaxAge),
	}
	if !c.Enabled() {
		return nil
	}
	if err := c.Check(); err != nil {
		key := prefix + "allowed-origin-patterns"
		if errors.Is(err, dispatch.ErrCredentialsWithAnyOrigin) {
			key = prefix + "allow-credentials"
		}
		b.Refuse(key, err.Error())
		return nil
	}
	return c
}

// corsMaxAge reads max-age as Spring binds it (@DurationUnit(SECONDS)):
// a bare number is seconds, not milliseconds as in the other durations.
func corsMaxAge(s string) (time.Duration, error) {
	if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32); err == nil && n >= 0 {
		return time.Duration(n) * time.Second, nil
	}
	return config.DurationOrZero(s)
}

// withCORS returns routes, each with the policy c.
func withCORS(routes []dispatch.Route, c *dispatch.CORS) []dispatch.Route {
	if c == nil {
		return routes
	}
	out := make([]dispatch.Route, len(routes))
	for i, rt := range routes {
		rt.CORS = c
		out[i] = rt
	}
	return out
}
