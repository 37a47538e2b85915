package boot

// What the framework tells config.CheckKeys, which finds the keys that
// nothing reads: the roots of the framework's keys, its families, and the
// hints that name a key's Spring Boot 3 name or the starter that reads it.
// With app.config.fail-on-unknown=true an unknown key stops start-up.

import (
	"slices"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/logging/logfile"
	"github.com/springport/greeter/framework/management/tracing"
)

const failOnUnknownKey = "app.config.fail-on-unknown"

// frameworkPrefixes are the roots of the keys the framework reads, or
// that a Spring user sets meaning them.
var frameworkPrefixes = []string{"server", "management", "app", "logging", "spring"}

// readFamilies are the families whose members are read by name, not
// bound one by one from a list that the framework knows: any member is
// accepted. Their app. members may be written as spring. too.
var readFamilies = []string{
	"logging.level.",
	"logging.structured.json.rename.",
	"logging.structured.json.add.",
	"management.endpoint.health.group.",
	"management.metrics.tags.",
	tracing.HeadersPrefix,
	tracing.ResourceAttributesPrefix,
}

// keyCheck is what config.CheckKeys is told of svc: read are the keys
// bound, own those that the service bound itself, variables the names of
// the environment variables set.
func (svc Service[S]) keyCheck(read, own, variables []string) config.KeyCheck {
	starters := svc.starterNames()
	return config.KeyCheck{
		Roots:                 frameworkPrefixes,
		Read:                  read,
		Own:                   own,
		ReadFamilies:          readFamilies,
		IgnoredFamilies:       config.SpringIgnoredFamilies,
		Variables:             variables,
		SettingsOnlyVariables: config.SpringVariablePrefixes,
		KeyHint:               func(key string) string { return keyHint(key, starters) },
		VariableHint:          config.Boot2VariableHint,
		RefusedBy:             failOnUnknownKey,
	}
}

// keyHint says what an unknown key may have meant, before the nearest key
// read: that a starter the service does not include reads it, or Boot
// 3's name of a Boot 2 key, written as the key was (spring. for spring.).
func keyHint(key string, starters []string) string {
	app, spring := config.AppTwin(key)
	if !spring {
		app = key
	}
	if starter := starterOf(key); starter != "" && !slices.Contains(starters, starter) {
		return "read by the starter " + starter + ", which this service does not include: add it to the service's Starters"
	}
	if hint := logfile.KeyHint(app); hint != "" {
		return hint
	}
	return config.Boot2Hint(key, app)
}
