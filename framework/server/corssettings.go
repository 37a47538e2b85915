package server

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// CORS settings: which pages of other origins a browser lets call the
// service (dispatch/cors.go answers them route by route). Spring Boot reads them for the
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

// CORS are the two CORS policies, which dispatch applies route by route
// (dispatch.WithCORS); nil when off.
type CORS struct {
	Management *dispatch.CORS // the management endpoints'
	Service    *dispatch.CORS // the service's routes' and its OpenAPI document's
}

// BindCORS reads management.endpoints.web.cors.* and app.web.cors.*.
func BindCORS(b *config.Binder) CORS {
	return CORS{
		Management: bindCORS(b, managementCORSPrefix, managementCORSMeanings),
		Service:    bindCORS(b, serviceCORSPrefix, serviceCORSMeanings),
	}
}

// managementCORSMeanings say what each management.endpoints.web.cors.*
// setting does, by the name under the prefix.
var managementCORSMeanings = map[string]string{
	"allowed-origins":         "origins (https://example.com) whose pages may call the management endpoints from a browser, * for every one; none: CORS off",
	"allowed-origin-patterns": "as allowed-origins, with * for any text and an optional port list (https://*.example.com:[8080,8443], :[*] any port)",
	"allowed-methods":         "methods those pages may use, * for every one; none: GET and HEAD",
	"allowed-headers":         "request headers those pages may send, * for every one; none: only those browsers send unasked",
	"exposed-headers":         "response headers, beyond the simple ones, that those pages may read",
	"allow-credentials":       "browsers send cookies and HTTP authentication with those pages' requests; not with allowed-origins=*",
	"max-age":                 "how long a browser may cache a preflight's answer (a bare number is seconds)",
}

// serviceCORSMeanings say what each app.web.cors.* setting does.
var serviceCORSMeanings = map[string]string{
	"allowed-origins":         "as management.endpoints.web.cors.allowed-origins, for the service's routes and its OpenAPI document",
	"allowed-origin-patterns": "as management.endpoints.web.cors.allowed-origin-patterns, for the service's routes",
	"allowed-methods":         "as management.endpoints.web.cors.allowed-methods, for the service's routes",
	"allowed-headers":         "as management.endpoints.web.cors.allowed-headers, for the service's routes",
	"exposed-headers":         "as management.endpoints.web.cors.exposed-headers, for the service's routes",
	"allow-credentials":       "as management.endpoints.web.cors.allow-credentials, for the service's routes",
	"max-age":                 "as management.endpoints.web.cors.max-age, for the service's routes",
}

// bindCORS reads one CORS policy under prefix; nil when it allows no
// origin. Credentials for every origin are refused, naming
// allow-credentials, as Spring refuses them (when the first request
// comes; here at start-up).
func bindCORS(b *config.Binder, prefix string, meanings map[string]string) *dispatch.CORS {
	c := &dispatch.CORS{
		AllowedOrigins:        config.Bind(b, prefix+"allowed-origins", nil, config.List, meanings["allowed-origins"]),
		AllowedOriginPatterns: config.Bind(b, prefix+"allowed-origin-patterns", nil, config.List, meanings["allowed-origin-patterns"]),
		AllowedMethods:        config.Bind(b, prefix+"allowed-methods", nil, config.List, meanings["allowed-methods"]),
		AllowedHeaders:        config.Bind(b, prefix+"allowed-headers", nil, config.List, meanings["allowed-headers"]),
		ExposedHeaders:        config.Bind(b, prefix+"exposed-headers", nil, config.List, meanings["exposed-headers"]),
		AllowCredentials:      config.Bind(b, prefix+"allow-credentials", false, config.Bool, meanings["allow-credentials"]),
		MaxAge:                config.Bind(b, prefix+"max-age", defaultCORSMaxAge, corsMaxAge, meanings["max-age"]),
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
