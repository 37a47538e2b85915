package actuator

import (
	"github.com/springport/greeter/framework/config"
)

// The access settings of the management endpoints, Spring Boot 3.5's:
// each endpoint's management.endpoint.<id>.access, or when unset
// management.endpoints.access.default, or when that is unset the
// endpoint's own default (none for shutdown and heapdump, unrestricted
// for the others); then no more than management.endpoints.access.max-permitted.
const (
	accessDefaultKey      = "management.endpoints.access.default"
	accessMaxPermittedKey = "management.endpoints.access.max-permitted"
)

// accessLevels are the levels, from the least to the most permitted.
var accessLevels = []string{AccessNone, AccessReadOnly, AccessUnrestricted}

var accessLevel = config.OneOf(accessLevels...)

// endpointAccessKey is the access setting of the endpoint id.
func endpointAccessKey(id string) string { return "management.endpoint." + id + ".access" }

// bindEndpointAccess resolves every endpoint's access as Spring Boot's
// PropertiesEndpointAccessResolver does.
func bindEndpointAccess(b *config.Binder) map[string]string {
	fallback := config.Bind(b, accessDefaultKey, "", optionalAccessLevel, "the access of every endpoint whose management.endpoint.<id>.access is unset: none, read-only (GET only), unrestricted; unset: each endpoint's default (shutdown and heapdump none, the others unrestricted)")
	ceiling := config.Bind(b, accessMaxPermittedKey, AccessUnrestricted, accessLevel, "no endpoint has more access than this: none, read-only, unrestricted")
	access := make(map[string]string, len(IDs))
	for _, id := range IDs {
		def := DefaultAccess(id)
		if fallback != "" {
			def = fallback
		}
		a := config.Bind(b, endpointAccessKey(id), def, accessLevel, endpointAccessMeaning(id))
		access[id] = lessPermitted(a, ceiling)
	}
	return access
}

// endpointAccessMeaning says what the access setting of the endpoint id
// does.
func endpointAccessMeaning(id string) string {
	if id == "shutdown" {
		return "unrestricted lets POST /actuator/shutdown (when exposed) stop the service; none, read-only"
	}
	return "the access of /actuator/" + id + ": none (404), read-only (its GET operations only), unrestricted; default: management.endpoints.access.default"
}

// optionalAccessLevel reads an access level, or nothing.
func optionalAccessLevel(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	return accessLevel(s)
}

// lessPermitted is the less permitted of two access levels.
func lessPermitted(a, b string) string {
	for _, level := range accessLevels {
		if a == level || b == level {
			return level
		}
	}
	return a
}
