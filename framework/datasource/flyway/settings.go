package flyway

import (
	"errors"

	"github.com/springport/greeter/framework/config"
)

// Bind reads the app.flyway.* settings, Spring Boot's spring.flyway.*
// (which are read too, as every spring. key is), with Spring Boot's
// defaults; a bad one is reported with the others.
func Bind(b *config.Binder) Settings {
	const p = "app.flyway."
	d := Defaults()
	return Settings{
		Enabled:             config.Bind(b, p+"enabled", d.Enabled, config.Bool, "whether the database is migrated at start-up with Flyway's migrations"),
		Locations:           config.Bind(b, p+"locations", d.Locations, locationList, "where the Flyway migrations are: classpath:<folder> is a folder of the service's embedded files, filesystem:<folder> one on disk; {vendor} is postgresql"),
		Table:               config.Bind(b, p+"table", d.Table, tableName, "the schema history table, in the connection's current schema"),
		BaselineOnMigrate:   config.Bind(b, p+"baseline-on-migrate", d.BaselineOnMigrate, config.Bool, "whether a schema that holds objects but no schema history table is given one, with a baseline at baseline-version, rather than refused"),
		BaselineVersion:     config.Bind(b, p+"baseline-version", d.BaselineVersion, versionText, "the version of the baseline that baseline-on-migrate records; migrations up to it are not applied"),
		BaselineDescription: config.Bind(b, p+"baseline-description", d.BaselineDescription, config.String, "the description of the baseline that baseline-on-migrate records"),
		ValidateOnMigrate:   config.Bind(b, p+"validate-on-migrate", d.ValidateOnMigrate, config.Bool, "whether the applied migrations are checked against the files before migrating: a changed checksum, a file gone, a failed migration stop start-up"),
		OutOfOrder:          config.Bind(b, p+"out-of-order", d.OutOfOrder, config.Bool, "whether a pending migration older than the newest applied is applied, rather than refused"),
	}
}

// locationList parses a comma-separated list of locations.
func locationList(s string) ([]string, error) {
	list, _ := config.List(s)
	if len(list) == 0 {
		return nil, errors.New("no location named")
	}
	for _, l := range list {
		if _, _, err := parseLocation(l); err != nil {
			return nil, err
		}
	}
	return list, nil
}

func tableName(s string) (string, error) {
	if s == "" {
		return "", errors.New("no table named")
	}
	return s, nil
}

// versionText checks a version as Flyway reads it, and returns it as
// written.
func versionText(s string) (string, error) {
	v, err := parseVersion(s)
	if err != nil {
		return "", err
	}
	return v.text, nil
}
