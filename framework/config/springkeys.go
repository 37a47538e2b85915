package config

// What Spring Boot's keys mean to a service of the framework, for
// CheckKeys (a KeyCheck's IgnoredFamilies, SettingsOnlyVariables and
// hints): the families that mean nothing here, the roots of Spring's
// variables, and the names Spring Boot 2 gave keys that Boot 3 renamed.

import "strings"

// SpringVariablePrefixes are the roots under which every environment
// variable is taken for a setting: those roots are Spring Boot's. APP_
// and a service's own root are words that images set for themselves
// (APP_HOME, APP_VERSION).
var SpringVariablePrefixes = []string{"SERVER_", "MANAGEMENT_", "LOGGING_", "SPRING_"}

// SpringIgnoredFamilies are Spring Boot's settings that mean nothing to
// a service of the framework: the
// servlet containers, JPA, templates, Spring MVC and Jackson, schema tools
// and devtools, log patterns (logging.file.* is read: logging/logfile).
// Their app. members may be written as spring. too.
// A key of these that something reads is read all the same.
var SpringIgnoredFamilies = []string{
	"app.jpa.", "app.sql.init.", "app.jackson.", "app.mvc.", "app.webflux.", "app.web.",
	"app.devtools.", "app.main.", "app.output.ansi.", "app.thymeleaf.", "app.freemarker.",
	"app.mustache.", "app.groovy.template.", "app.liquibase.", "app.h2.",
	"app.cloud.", "app.jmx.", "app.aop.", "app.task.", "app.threads.", "app.servlet.",
	"app.banner.", "app.autoconfigure.", "app.transaction.", "app.data.jpa.", "app.data.rest.",
	"server.tomcat.", "server.jetty.", "server.undertow.", "server.netty.", "server.error.",
	"server.servlet.encoding.", "server.servlet.jsp.",
	"logging.pattern.", "logging.log4j2.", "logging.charset.",
	"logging.config", "logging.register-shutdown-hook", "logging.threshold.",
	// A Go error has no frames to leave out or hash.
	"logging.structured.json.stacktrace.include-common-frames", "logging.structured.json.stacktrace.include-hashes",
	"management.endpoint.health.probes.", "management.health.livenessstate.", "management.health.readinessstate.",
}

// boot2Redis is Spring Boot 2's root of the Redis settings, which Boot 3
// renamed app.data.redis (spring.data.redis). It is not read, as Boot 3
// does not read it, but named.
const boot2Redis = "app.redis."

// Boot2Hint names Boot 3's name of key when key is a Boot 2 name that
// Boot 3 renamed, written as the key was (spring. for spring.); app is
// key under app. (AppTwin). It is "" for any other key.
func Boot2Hint(key, app string) string {
	if rest, ok := strings.CutPrefix(app, boot2Redis); ok {
		return "Spring Boot 2's name, not read; Spring Boot 3 names it " + strings.TrimSuffix(key, strings.TrimPrefix(app, "app.")) + "data.redis." + rest
	}
	return ""
}

// Boot2VariableHint is Boot2Hint for an environment variable.
func Boot2VariableHint(name string) string {
	if rest, ok := strings.CutPrefix(name, "SPRING_REDIS_"); ok {
		return "Spring Boot 2's name, not read; Spring Boot 3 names it SPRING_DATA_REDIS_" + rest
	}
	if rest, ok := strings.CutPrefix(name, "APP_REDIS_"); ok {
		return "Spring Boot 2's name, not read; Spring Boot 3 names it APP_DATA_REDIS_" + rest
	}
	return ""
}
