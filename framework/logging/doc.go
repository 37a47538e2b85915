// Package logging gives the service named loggers whose levels an
// operator can change while it runs, in the manner of Spring Boot's
// logging system over Logback.
//
// Loggers are named like Java packages, in a dotted hierarchy under ROOT:
// "greeter.dispatch" is below "greeter", which is below ROOT. A logger
// with no level of its own takes the level of its nearest ancestor that
// has one, so setting "greeter" to DEBUG sets every logger of the service
// that has no level of its own. Levels are Spring's (TRACE, DEBUG, INFO,
// WARN, ERROR and OFF), mapped onto log/slog's.
//
// Each logger is a *slog.Logger whose handler wraps the one that writes
// the lines: its Enabled reads the logger's level from one atomic word, so
// a disabled line costs neither a lock nor an allocation, and a change of
// level is seen by the next line.
package logging
