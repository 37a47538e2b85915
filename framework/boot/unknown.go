package boot

// What the framework tells config.CheckKeys, which finds the keys that
// nothing reads: the roots of the framework's keys, its families, and the
// hints that name a key's Spring Boot 3 name or the starter that reads it.
// With app.config.fail-on-unknown=true an unknown key stops start-up.

import (
	"slices"
	"strings"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/management/tracing"
)

const failOnUnknownKey = "app.config.fail-on-unknown"

// frameworkPrefixes are the roots of the keys the framework reads, or
// that a Spring user sets meaning them.
var frameworkPrefixes = []string{"server", "management", "app", "logging", "spring"}

// springVariablePrefixes are the roots under which every environment
// variable is taken for a setting: those roots are Spring Boot's. APP_
// and a service's own root are words that images set for themselves
// (APP_HOME, APP_VERSION).
var springVariablePrefixes = []string{"SERVER_", "MANAGEMENT_", "LOGGING_", "SPRING_"}

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

// ignoredFamilies are Spring Boot's settings that mean nothing here: the
// servlet containers, JPA, templates, Spring MVC and Jackson, schema tools
// and devtools, log files and patterns (logs go to stdout, as
// logging.format says). Their app. members may be written as spring. too.
// A key of these that something reads is read all the same.
var ignoredFamilies = []string{
	"app.jpa.", "app.sql.init.", "app.jackson.", "app.mvc.", "app.webflux.", "app.web.",
	"app.devtools.", "app.main.", "app.output.ansi.", "app.thymeleaf.", "app.freemarker.",
	"app.mustache.", "app.groovy.template.", "app.liquibase.", "app.h2.",
	"app.cloud.", "app.jmx.", "app.aop.", "app.task.", "app.threads.", "app.servlet.",
	"app.banner.", "app.autoconfigure.", "app.transaction.", "app.data.jpa.", "app.data.rest.",
	"server.tomcat.", "server.jetty.", "server.undertow.", "server.netty.", "server.error.",
	"server.servlet.encoding.", "server.servlet.jsp.",
	"logging.file.", "logging.pattern.", "logging.logback.", "logging.log4j2.", "logging.charset.",
	"logging.config", "logging.register-shutdown-hook", "logging.threshold.",
	// A Go error has no frames to leave out or hash.
	"logging.structured.json.stacktrace.include-common-frames", "logging.structured.json.stacktrace.include-hashes",
	"management.endpoint.health.probes.", "management.health.livenessstate.", "management.health.readinessstate.",
}

// boot2Redis is Spring Boot 2's root of the Redis settings, which Boot 3
// renamed app.data.redis (spring.data.redis). It is not read, as Boot 3
// does not read it, but named.
const boot2Redis = "app.redis."

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
		IgnoredFamilies:       ignoredFamilies,
		Variables:             variables,
		SettingsOnlyVariables: springVariablePrefixes,
		KeyHint:               func(key string) string { return keyHint(key, starters) },
		VariableHint:          variableHint,
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
	if rest, ok := strings.CutPrefix(app, boot2Redis); ok {
		return "Spring Boot 2's name, not read; Spring Boot 3 names it " + strings.TrimSuffix(key, strings.TrimPrefix(app, "app.")) + "data.redis." + rest
	}
	return ""
}

// variableHint is keyHint for an environment variable.
func variableHint(name string) string {
	if rest, ok := strings.CutPrefix(name, "SPRING_REDIS_"); ok {
		return "Spring Boot 2's name, not read; Spring Boot 3 names it SPRING_DATA_REDIS_" + rest
	}
	if rest, ok := strings.CutPrefix(name, "APP_REDIS_"); ok {
		return "Spring Boot 2's name, not read; Spring Boot 3 names it APP_DATA_REDIS_" + rest
	}
	return ""
}
