package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/springport/greeter/api"
	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/config"
)

// settings are greeter's own settings; the framework binds its own
// (server.*, management.*, logging.*, the session store).
type settings struct {
	greeting    string
	example     exampleSettings
	numberScope component.Scope // the number component's lifecycle
	messages    messageSettings
	// otherDataSources are the settings of databases that greeter does not
	// read (see otherDataSources), for the one line saying the messages
	// live in memory when the datasource starter opened no pool.
	otherDataSources []string
}

// exampleSettings are the spec's example of profile-specific settings.
type exampleSettings struct {
	propA string
	propB int32
}

// messageSettings bound the message collection, and the pages that list
// it, so that no client can fill the memory or the database.
type messageSettings struct {
	limits message.Limits
	paging api.Paging
}

// settingsHelp says what each of greeter's settings does, for --help and
// docs/configuration.md; a test checks it against bindSettings.
var settingsHelp = map[string]string{
	"app.greeting":                            "the greeting of /api/hello and /api/hello/{id}",
	"app.example.prop-a":                      "the spec's example of a string setting",
	"app.example.prop-b":                      "the spec's example of an integer setting (200 with the dev profile)",
	"app.number.scope":                        "lifecycle of the number component: prototype, request, session, singleton",
	"app.messages.max-count":                  "messages held at most; a POST past it is refused with 507",
	"app.messages.max-total-size":             "bytes of message text held at most (B, KB, MB, GB); a POST or PUT past it is refused with 507",
	"app.data.web.pageable.default-page-size": "the size of a page of GET /api/messages?page=N without &size=",
	"app.data.web.pageable.max-page-size":     "a larger &size= is cut to this",
}

// bindSettings reads greeter's settings through b.
func bindSettings(b *config.Binder) settings {
	return settings{
		greeting: config.Bind(b, "app.greeting", "Hello World!", config.String),
		example: exampleSettings{
			propA: config.Bind(b, "app.example.prop-a", "", config.String),
			propB: config.Bind(b, "app.example.prop-b", int32(0), config.Int32),
		},
		numberScope: config.Bind(b, "app.number.scope", component.Prototype, numberScope),
		messages:    bindMessageSettings(b),
		// Said only when the datasource starter opened no pool.
		otherDataSources: otherDataSources(b),
	}
}

// otherDataSources describes what a Spring user's settings say of a
// database that greeter does not read, when no datasource is configured
// (the datasource starter binds app.datasource.*, before greeter does):
// the keys of Druid's starter (spring.datasource.druid.*), of
// dynamic-datasource (spring.datasource.dynamic.*) and any other
// spring.datasource.* key that nothing binds (a driver class, a second
// pool), and JDBC URLs under keys of their own (spring.datasource.master.url,
// a MySQL or Oracle URL). Each family is one entry, naming its first key
// as written, where it is set, and how many keys it has; values are never
// shown. Those keys are warned about one by one as settings nothing
// reads; what they mean together, that the messages are not kept in a
// database, is said once, by openMessages.
func otherDataSources(b *config.Binder) []string {
	type family struct {
		name, first, origin string
		count               int
	}
	var families []*family
	byName := map[string]*family{}
	add := func(name, key string) {
		f := byName[name]
		if f == nil {
			v := b.Value(key, "")
			f = &family{name: name, first: v.Key, origin: config.OriginWithoutValue(v.Origin)}
			byName[name] = f
			families = append(families, f)
		}
		f.count++
	}
	for _, key := range b.KeysWithPrefix("") {
		if app, ok := config.AppTwin(key); ok {
			key = app // spring.datasource.* is read as app.datasource.*
		}
		if _, bound := b.Default(key); bound {
			continue
		}
		lower := strings.ToLower(key)
		switch {
		case strings.HasPrefix(lower, "app.datasource.druid."):
			add("Druid", key)
		case strings.HasPrefix(lower, "app.datasource.dynamic."):
			add("dynamic-datasource", key)
		case strings.HasPrefix(lower, "app.datasource."):
			add("datasource", key)
		case strings.HasSuffix(lower, "url") && strings.HasPrefix(strings.ToLower(strings.TrimSpace(b.Value(key, "").Raw)), "jdbc:"):
			add("JDBC URL", key)
		}
	}
	out := make([]string, len(families))
	for i, f := range families {
		out[i] = fmt.Sprintf("%s: %s (%s)", f.name, f.first, f.origin)
		switch {
		case f.count == 2:
			out[i] = fmt.Sprintf("%s: %s and 1 more key (%s)", f.name, f.first, f.origin)
		case f.count > 2:
			out[i] = fmt.Sprintf("%s: %s and %d more keys (%s)", f.name, f.first, f.count-1, f.origin)
		}
	}
	return out
}

// bindMessageSettings reads the bounds of the collection and its pages.
// The page sizes are Spring Data's settings, with Spring Data's defaults.
func bindMessageSettings(b *config.Binder) messageSettings {
	return messageSettings{
		limits: message.Limits{
			MaxCount: int64(config.Bind(b, "app.messages.max-count", 1_000_000, config.IntIn(1, math.MaxInt))),
			MaxBytes: int64(config.Bind(b, "app.messages.max-total-size", config.ByteSize(512<<20), config.DataSize)),
		},
		paging: api.Paging{
			DefaultSize: int32(config.Bind(b, "app.data.web.pageable.default-page-size", api.DefaultPageSize, config.IntIn(1, math.MaxInt32))),
			MaxSize:     int32(config.Bind(b, "app.data.web.pageable.max-page-size", api.DefaultMaxPageSize, config.IntIn(1, math.MaxInt32))),
		},
	}
}

// numberScopes are the lifecycles the number endpoints are defined for,
// in the order the settings report names them.
var numberScopes = []component.Scope{component.Prototype, component.Request, component.Session, component.Singleton}

// numberScope reads app.number.scope: the Spring name of one of
// numberScopes, in any case (Singleton, REQUEST).
func numberScope(s string) (component.Scope, error) {
	names := make([]string, len(numberScopes))
	for i, scope := range numberScopes {
		names[i] = scope.String()
	}
	name, err := config.OneOf(names...)(s)
	if err != nil {
		return 0, err
	}
	return numberScopes[slices.Index(names, name)], nil
}
