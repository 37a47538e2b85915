package boot

// Nothing set is silently ignored. After binding, every key that the
// sources set under the framework's prefixes (server., management., app.,
// logging., spring.) or the service's own (the first word of the keys its
// Bind reads) is sorted into one of:
//
//   - read: a binding, the loader or a placeholder reads it, or it belongs
//     to a family whose members are read by name (logging.level.<name>);
//     a spring. key read as its app. twin is named in one INFO line;
//   - ignored: one of Spring's settings that mean nothing here
//     (spring.jpa.*, server.tomcat.*); one WARN line sums them up by
//     family, with a count;
//   - unknown: anything else, a misspelt key most often; one WARN line
//     each, with its origin and the nearest key that is read, when one is
//     close. Boot 2's spring.redis.* is unknown, with its Boot 3 name.
//
// With app.config.fail-on-unknown=true an unknown key stops start-up.
// Values are never shown: an unknown key may hold a secret.
//
// The environment is searched only where it is unlikely to hold what is
// not meant for the service (see unknownvariables.go).

import (
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"

	"github.com/springport/greeter/framework/config"
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
	"management.endpoint.health.group.",
	"management.metrics.tags.",
	tracing.HeadersPrefix,
	tracing.ResourceAttributesPrefix,
	"app.ssl.bundle.",
}

// ignoredFamilies are Spring Boot's settings that mean nothing here: the
// servlet containers, JPA, templates, Spring MVC and Jackson, schema tools
// and devtools, log files and patterns (logs go to stdout, as
// logging.format says). Their app. members may be written as spring. too.
// A key of these that something reads is read all the same.
var ignoredFamilies = []string{
	"app.jpa.", "app.sql.init.", "app.jackson.", "app.mvc.", "app.webflux.", "app.web.",
	"app.devtools.", "app.main.", "app.output.ansi.", "app.thymeleaf.", "app.freemarker.",
	"app.mustache.", "app.groovy.template.", "app.flyway.", "app.liquibase.", "app.h2.",
	"app.cloud.", "app.jmx.", "app.aop.", "app.task.", "app.threads.", "app.servlet.",
	"app.banner.", "app.autoconfigure.", "app.transaction.", "app.data.jpa.", "app.data.rest.",
	"server.tomcat.", "server.jetty.", "server.undertow.", "server.netty.", "server.error.",
	"server.servlet.encoding.", "server.servlet.jsp.",
	"logging.file.", "logging.pattern.", "logging.logback.", "logging.log4j2.", "logging.charset.",
	"logging.config", "logging.register-shutdown-hook", "logging.threshold.",
	"management.endpoint.health.probes.", "management.health.livenessstate.", "management.health.readinessstate.",
}

// boot2Redis is Spring Boot 2's root of the Redis settings, which Boot 3
// renamed app.data.redis (spring.data.redis). It is not read, as Boot 3
// does not read it, but named.
const boot2Redis = "app.redis."

// maxUnknownLines bounds the lines about unknown keys, however many a
// source holds; the rest are counted.
const maxUnknownLines = 100

// unknownKey is a key that nothing reads.
type unknownKey struct {
	key, origin string
	hint        string // "did you mean server.port?"; "" when nothing is close
}

func (u unknownKey) String() string {
	s := u.key + " (" + u.origin + ")"
	if u.hint != "" {
		s += ": " + u.hint
	}
	return s
}

// keyReport is what start-up says about the keys the sources set.
type keyReport struct {
	unknown   []unknownKey   // at most maxUnknownLines
	ignored   map[string]int // Spring's families that mean nothing here, as written (spring.jpa.*), by count
	twins     []string       // spring. keys read as their app. twins, as written; at most maxUnknownLines
	more      int            // unknown keys past those listed
	twinsMore int            // spring. keys read past those listed
}

// keyIndex is what is known of the keys the service reads.
type keyIndex struct {
	read      map[string]bool   // keys bound or read by the loader or a placeholder
	variables map[string]string // the environment variables that set them, to the key each sets
	parents   []string          // the variable prefixes of their parents (APP_DATASOURCE_), of two words or more
	families  []string          // readFamilies and the loader's, with their spring. twins
	prefixes  []string          // the roots checked, each with its dot
	keys      []string          // the keys, for suggestions
	starters  []string          // the starters the service includes, by name
}

// checkKeys sorts the keys env sets, and the environment variables
// variables names, by whether anything reads them. read are the keys
// bound, own those that the service bound itself; starters name the
// starters the service includes.
func checkKeys(env *config.Environment, read, own, variables, starters []string) keyReport {
	idx := newKeyIndex(env, read, own)
	idx.starters = starters
	r := keyReport{ignored: map[string]int{}}
	for _, k := range env.SetKeys() {
		if strings.HasPrefix(k.Key, "spring.") && idx.isRead(k.Key) {
			r.twin(k.Key)
		}
		if idx.isRead(k.Key) || !hasAnyPrefix(k.Key, idx.prefixes) {
			continue
		}
		if family, ok := ignoredFamily(k.Key); ok {
			r.ignored[family]++
			continue
		}
		r.add(unknownKey{key: k.Key, origin: k.Origin}, idx.keyHint)
	}
	for _, name := range slices.Sorted(slices.Values(variables)) {
		idx.indexVariables()
		_, read := idx.variables[name]
		switch {
		case read:
			if strings.HasPrefix(name, "SPRING_") {
				r.twin(name)
			}
		case idx.ignoresVariable(name):
		default:
			if family, ok := ignoredVariableFamily(name); ok {
				r.ignored[family]++
				continue
			}
			if idx.takesVariable(name) || idx.variableHint(name) != "" {
				r.add(unknownKey{key: name, origin: "environment variable " + name}, idx.variableHint)
			}
		}
	}
	return r
}

// add notes an unknown key, with the hint that hint gives it, or past
// maxUnknownLines counts it: however many a source holds, the report
// stays small.
func (r *keyReport) add(u unknownKey, hint func(string) string) {
	if len(r.unknown) >= maxUnknownLines {
		r.more++
		return
	}
	u.hint = hint(u.key)
	r.unknown = append(r.unknown, u)
}

// twin notes a spring. key (or variable) read as its app. twin: a
// family's members may be many, so past maxUnknownLines they are counted.
func (r *keyReport) twin(key string) {
	if len(r.twins) < maxUnknownLines {
		r.twins = append(r.twins, key)
	} else {
		r.twinsMore++
	}
}

func newKeyIndex(env *config.Environment, read, own []string) *keyIndex {
	idx := &keyIndex{read: map[string]bool{}}
	for _, p := range frameworkPrefixes {
		idx.prefixes = append(idx.prefixes, p+".")
	}
	for _, k := range own {
		root, _, _ := strings.Cut(k, ".")
		if !slices.Contains(idx.prefixes, root+".") {
			idx.prefixes = append(idx.prefixes, root+".")
		}
	}
	families := slices.Clone(readFamilies)
	for _, l := range config.LoaderSettings() {
		if strings.HasSuffix(l.Key, ".") {
			families = append(families, l.Key)
		} else {
			read = append(read, l.Key)
		}
	}
	for _, f := range families {
		idx.families = append(idx.families, f)
		if twin, ok := config.SpringTwin(f); ok {
			idx.families = append(idx.families, twin)
		}
	}
	for _, k := range slices.Concat(read, env.Referenced()) {
		if idx.read[k] {
			continue
		}
		idx.read[k] = true
		idx.keys = append(idx.keys, k)
	}
	return idx
}

// isRead reports whether key, as a file or an argument sets it, is read.
func (idx *keyIndex) isRead(key string) bool {
	if idx.read[key] {
		return true
	}
	if app, ok := config.AppTwin(key); ok && idx.read[app] {
		return true
	}
	return hasAnyPrefix(key, idx.families)
}

// ignoredFamily returns the family of Spring's that key belongs to, as
// written (spring.jpa.* or app.jpa.*), when it means nothing here.
func ignoredFamily(key string) (string, bool) {
	app := key
	if twin, ok := config.AppTwin(key); ok {
		app = twin
	}
	for _, f := range ignoredFamilies {
		if strings.HasPrefix(app, f) {
			return key[:len(f)+len(key)-len(app)] + "*", true
		}
	}
	return "", false
}

// keyHint says what an unknown key may have meant: Boot 3's name of a
// Boot 2 key, or the nearest key that is read, written as the key was
// (spring. for spring.).
func (idx *keyIndex) keyHint(key string) string {
	app, spring := config.AppTwin(key)
	if !spring {
		app = key
	}
	if starter := starterOf(app); starter != "" && !slices.Contains(idx.starters, starter) {
		return "read by the starter " + starter + ", which this service does not include: add it to the service's Starters"
	}
	if rest, ok := strings.CutPrefix(app, boot2Redis); ok {
		return "Spring Boot 2's name, not read; Spring Boot 3 names it " + strings.TrimSuffix(key, strings.TrimPrefix(app, "app.")) + "data.redis." + rest
	}
	near, ok := nearest(app, idx.keys)
	if !ok {
		return ""
	}
	if spring {
		near, _ = config.SpringTwin(near)
	}
	return "did you mean " + near + "?"
}

func hasAnyPrefix(s string, prefixes []string) bool {
	return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(s, p) })
}

// log writes the report: a line per unknown key, one for the rest, one
// summing up Spring's settings that mean nothing here, one naming the
// spring. keys read as app. keys.
func (r keyReport) log(logger *slog.Logger) {
	if len(r.twins) > 0 {
		attrs := []any{"keys", strings.Join(slices.Sorted(slices.Values(r.twins)), ",")}
		if r.twinsMore > 0 {
			attrs = append(attrs, "more", r.twinsMore)
		}
		logger.Info("spring. keys read as their app. twins", attrs...)
	}
	for _, u := range r.unknown {
		attrs := []any{"key", u.key, "origin", u.origin}
		if u.hint != "" {
			attrs = append(attrs, "hint", u.hint)
		}
		logger.Warn("setting not read by anything, ignored", attrs...)
	}
	if r.more > 0 {
		logger.Warn("more settings not read by anything, ignored and not listed", "count", r.more)
	}
	if len(r.ignored) > 0 {
		var families []string
		for _, f := range slices.Sorted(maps.Keys(r.ignored)) {
			families = append(families, fmt.Sprintf("%s (%d)", f, r.ignored[f]))
		}
		logger.Warn("Spring Boot settings that mean nothing here, ignored", "families", strings.Join(families, ", "))
	}
}

// UnknownKeysError is the refusal of app.config.fail-on-unknown: the keys
// that nothing reads, each with its origin and the nearest key read.
type UnknownKeysError struct {
	Keys []string // "key (origin): did you mean ...?"
	More int      // unknown keys past those listed
}

func (e *UnknownKeysError) Error() string {
	var b strings.Builder
	b.WriteString("Settings that nothing reads, refused by " + failOnUnknownKey + "=true:\n\n")
	for _, k := range e.Keys {
		b.WriteString("    " + k + "\n")
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "    and %d more\n", e.More)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// refusal is the UnknownKeysError of r; nil when no key is unknown.
func (r keyReport) refusal() error {
	if len(r.unknown) == 0 {
		return nil
	}
	e := &UnknownKeysError{More: r.more}
	for _, u := range r.unknown {
		e.Keys = append(e.Keys, u.String())
	}
	return e
}
