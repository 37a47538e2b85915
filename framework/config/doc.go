// Package config loads a service's settings as Spring Boot loads an
// application's, and binds them to typed values.
//
// # Sources and profiles
//
// Load reads layered sources; from lowest precedence to highest:
//
//   - the application.properties, .yml or .yaml packaged in the binary
//     (Options.Embedded), then its application-<profile>.* files;
//   - the same files in ./, ./config/ and each ./config/*/ (or wherever
//     app.config.location and app.config.additional-location say), then
//     their profile files;
//   - the files that app.config.import names on the command line or in the
//     environment (a settings file may import others too, which override
//     the document that imports them);
//   - random values, ${random.int}, ${random.uuid} and the like;
//   - environment variables, by Spring's relaxed names (APP_CACHE_TTL sets
//     app.cache.ttl);
//   - APP_APPLICATION_JSON (or --app.application.json), a JSON object of
//     settings;
//   - --key=value command-line arguments (Options.Args).
//
// A key is found in any of the forms Spring's relaxed binding takes: in a
// file, APP_APPLICATION_JSON, a config tree or an argument,
// server.compression.minResponseSize and min_response_size are
// server.compression.min-response-size (see relaxed.go).
//
// The active profiles are decided in two passes, as Spring does, from
// app.profiles.active, app.profiles.include, app.profiles.group.<name> and
// app.profiles.default. Values may hold ${name} and ${name:default}
// placeholders, resolved when the value is read. Every value keeps its
// origin: a file and line, an environment variable, an argument.
//
// # Binding
//
// A Binder reads typed settings: Bind takes a key, its default and a parser
// (Port, Duration, DurationAtLeast, DataSize, OneOf, Bool, List...). It
// collects every value that does not convert rather than stopping at the
// first, so that one start reports every bad setting at once, each as a
// SettingError naming its key, its value, its origin and what was wanted.
//
// # Keys that nothing reads
//
// CheckKeys finds the keys that the sources set and nothing reads, a
// misspelt one most often, and names the nearest key read; KeyReport logs
// them, or refuses them as an UnknownKeysError.
//
// # Renamed keys
//
// A package declares the keys of its settings that Spring Boot renamed
// (Renamed; 4.0's management.otlp.tracing.endpoint is
// management.opentelemetry.tracing.export.otlp.endpoint): the old key is
// then read wherever the new one is, after it in each source, and
// CheckKeys reports it with its new name, as Spring's properties migrator
// does (renames.go).
//
// # Listings
//
// Environment.PropertySources lists the sources and their settings for a
// listing such as /actuator/env, and Sanitize masks the secrets in what is
// shown.
package config
