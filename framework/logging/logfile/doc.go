// Package logfile writes the log file Spring Boot writes with
// logging.file.name (or logging.file.path), archived as Spring Boot's
// default Logback setup archives it: a RollingFileAppender with
// SizeAndTimeBasedRollingPolicy, configured by
// logging.logback.rollingpolicy.* (Bind).
//
//   - The archives are named by the file-name pattern (Pattern), Spring's
//     default ${LOG_FILE}.%d{yyyy-MM-dd}.%i.gz: %d{…} in Java's date
//     letters names each archive's period (daily there; hourly with HH),
//     %i its index within the period, and a .gz or .zip suffix
//     compresses it.
//   - The file is archived before a line that would take it past
//     max-file-size, and before the first line of a new period. Each
//     slog record is one Write of a whole line, under the Writer's lock,
//     so no line is split across files.
//   - max-history keeps the archives of that many periods before the
//     current one (periods of the pattern, not files, as in Logback);
//     total-size-cap then removes the oldest past it;
//     clean-history-on-start applies both when the file is opened.
//   - Compressing and removing happen in the background: the raw
//     archive is removed only once its compressed copy is whole, and one
//     left by a crash is compressed when the file is next opened.
//
// The file is opened, with its folders, by Open, whose error stops
// start-up; a failure to write after that is reported once and counted,
// and the other outputs go on.
//
// gopkg.in/natefinch/lumberjack.v2 was not taken: it names archives its
// own way only, rotates by size alone in whole megabytes, and removes
// by count and age in days, with no total cap (docs/decisions/0015).
package logfile
