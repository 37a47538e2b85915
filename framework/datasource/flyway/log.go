package flyway

import "log/slog"

// Log logs what Migrate did, as Spring Boot's Flyway logs it at start-up:
// the baseline, each migration applied (or that the schema is up to
// date), and, as warnings, the versions applied that no migration here
// knows (Future), the ignored files and the missing locations.
func (r *Result) Log(logger *slog.Logger) {
	if r.Baselined {
		logger.Info("PostgreSQL schema history created with a baseline", "table", r.Table, "version", r.InitialVersion)
	}
	for _, a := range r.Applied {
		logger.Info("PostgreSQL schema migrated", "version", a.Version, "description", a.Description, "file", a.File, "duration", a.Took)
	}
	if len(r.Applied) == 0 {
		logger.Info("PostgreSQL schema is up to date", "version", r.Version, "table", r.Table)
	}
	if len(r.Future) > 0 {
		logger.Warn("the schema has migrations applied that are newer than any known here: a newer build migrated it", "versions", r.Future, "table", r.Table)
	}
	if len(r.Ignored) > 0 {
		logger.Warn("files in the migration locations whose names are not Flyway migrations' (V<version>__<description>.sql, R__<description>.sql) are ignored", "files", r.Ignored)
	}
	if len(r.MissingLocations) > 0 {
		logger.Warn("migration locations that do not exist", "locations", r.MissingLocations)
	}
}
