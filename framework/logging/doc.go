// Package logging gives a service named loggers whose levels an operator
// can change while it runs, in the manner of Spring Boot's logging system
// over Logback: in a service built on boot, logging.level.<name> sets a
// logger's level at start-up, and /actuator/loggers reads and changes it
// while the service runs.
//
// Loggers are named like Java packages, in a dotted hierarchy under ROOT:
// "shop.orders" is below "shop", which is below ROOT. A logger with no
// level of its own takes the level of its nearest ancestor that has one,
// so setting "shop" to DEBUG sets every logger below it that has no level
// of its own. Groups name several loggers that are set together. Levels
// are Spring's (TRACE, DEBUG, INFO, WARN, ERROR and OFF), mapped onto
// log/slog's.
//
// Each logger is a *slog.Logger whose handler wraps the one that writes
// the lines: its Enabled reads the logger's level from one atomic word, so
// a disabled line costs neither a lock nor an allocation, and a change of
// level is seen by the next line.
package logging
