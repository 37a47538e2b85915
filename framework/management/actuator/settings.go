package actuator

import (
	"fmt"
	"strings"

	"github.com/springport/greeter/framework/config"
)

// Settings are the management endpoints' own settings, with Spring
// Boot's names and defaults: which are reachable, where they live, what
// health shows and watches, each endpoint's access, and what the
// diagnostics keep. They fill Options.
type Settings struct {
	Exposure              Exposure
	ShowValues            string // management.endpoint.env.show-values
	ConfigPropsShowValues string // management.endpoint.configprops.show-values
	Health                HealthDisplay
	DiskSpace             DiskSpace
	HealthGroups          map[string][]string // user-defined health groups: name → included components
	Access                map[string]string   // each endpoint's access: none, read-only, unrestricted (access.go)
	RecordExchanges       bool                // keep the recent exchanges for /actuator/httpexchanges
	InfoEnv               bool                // management.info.env.enabled: /actuator/info shows the info.* settings
	SSL                   SSLSettings         // management.health.ssl.*, management.info.ssl.enabled (ssl.go)

	basePath       string // the endpoints' base path; "" is the root
	serverBasePath string // prefixes basePath on a management port of its own
}

// Bind reads management.endpoints.*, management.endpoint.*,
// management.health.* and management.httpexchanges.* through b.
func Bind(b *config.Binder) Settings {
	showValues := config.OneOf("never", "when-authorized", "always")
	return Settings{
		Exposure: Exposure{
			Include: config.Bind(b, "management.endpoints.web.exposure.include", []string{"health"}, config.List, "management endpoints reachable over HTTP (* for all)"),
			Exclude: config.Bind(b, "management.endpoints.web.exposure.exclude", nil, config.List, "... minus these"),
		},
		ShowValues:     config.Bind(b, "management.endpoint.env.show-values", "never", showValues, "always shows values in /actuator/env (secrets stay masked); never, when-authorized"),
		Health:         bindHealthDisplay(b),
		basePath:       config.Bind(b, "management.endpoints.web.base-path", DefaultBasePath, pathPrefix, "where the management endpoints live (/ for the root, without an index)"),
		serverBasePath: config.Bind(b, "management.server.base-path", "", pathPrefix, "prefixes the base path when management has a port of its own"),
		DiskSpace: DiskSpace{
			Path:      config.Bind(b, "management.health.diskspace.path", ".", config.String, "the file system the diskSpace health component watches"),
			Threshold: int64(config.Bind(b, "management.health.diskspace.threshold", config.ByteSize(DefaultDiskSpaceThreshold), config.DataSize, "diskSpace is DOWN with less free than this (B, KB, MB, GB)")),
		},
		HealthGroups:          bindHealthGroups(b),
		Access:                bindEndpointAccess(b),
		RecordExchanges:       config.Bind(b, "management.httpexchanges.recording.enabled", false, config.Bool, "keep the last 100 requests for /actuator/httpexchanges"),
		InfoEnv:               config.Bind(b, "management.info.env.enabled", false, config.Bool, "shows the info.* settings of the files and the command line in /actuator/info"),
		ConfigPropsShowValues: config.Bind(b, "management.endpoint.configprops.show-values", "never", showValues, "always shows values in /actuator/configprops (secrets stay masked); never, when-authorized"),
		SSL:                   bindSSL(b),
	}
}

// BasePath is where the endpoints live: management.endpoints.web.base-path,
// under management.server.base-path on a port of their own (ownPort), as
// in Spring; "/" for the root.
func (s Settings) BasePath(ownPort bool) string {
	base := s.basePath
	if ownPort {
		base = s.serverBasePath + base
	}
	if base == "" {
		return "/"
	}
	return base
}

// bindHealthDisplay reads what /actuator/health shows. As in Spring,
// show-components follows show-details unless it is set.
func bindHealthDisplay(b *config.Binder) HealthDisplay {
	show := config.OneOf("never", "when-authorized", "always")
	details := config.Bind(b, "management.endpoint.health.show-details", "never", show, "always shows the health components' details; never; when-authorized: to an authenticated user (see management.endpoint.health.roles)")
	return HealthDisplay{
		ShowDetails:    details,
		ShowComponents: config.Bind(b, "management.endpoint.health.show-components", details, show, "always lists the health components (db, redis); defaults to show-details"),
	}
}

// healthGroupName is the <name> of a key
// management.endpoint.health.group.<name>.include, where <name> has no
// dot.
func healthGroupName(key string) (string, bool) {
	name, sub, ok := config.CutMember(key, healthGroupPrefix)
	return name, ok && config.SameKey(sub, "include") && name != "" && !strings.Contains(name, ".")
}

const healthGroupPrefix = "management.endpoint.health.group."

// bindHealthGroups reads the user's health groups. Their names are part
// of their keys, so the keys are found among those the settings files and
// the command line define; an environment variable cannot name a group of
// its own, as the environment is never listed whole.
func bindHealthGroups(b *config.Binder) map[string][]string {
	b.Describe("management.endpoint.health.group.<name>.include", "the health components (ping, diskSpace, db, redis, the service's own) "+
		"of the health group <name>, served at /actuator/health/<name>; a component that does not exist stops start-up")
	var groups map[string][]string
	for _, key := range b.KeysWithPrefix(healthGroupPrefix) {
		name, ok := healthGroupName(key)
		if !ok {
			continue
		}
		if _, ok := groups[name]; ok {
			continue // set in another form too (Include): the highest source's is bound
		}
		if groups == nil {
			groups = map[string][]string{}
		}
		groups[name] = config.Bind(b, key, nil, config.List, "the health components of the health group "+name)
	}
	return groups
}

// pathPrefix reads a base path as Spring does: empty, or starting with
// a slash; a trailing slash is dropped, so "/" is the root ("").
func pathPrefix(s string) (string, error) {
	if s != "" && !strings.HasPrefix(s, "/") {
		return "", fmt.Errorf("want a path that starts with /")
	}
	return strings.TrimSuffix(s, "/"), nil
}
