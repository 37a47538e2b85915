package flyway_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/datasource/flyway"
)

// What Migrate runs on: a connection, or a pool or a pool's connection.
var (
	_ flyway.DB = (*pgxpool.Pool)(nil)
	_ flyway.DB = (*pgxpool.Conn)(nil)
)

func bind(t *testing.T, args ...string) (flyway.Settings, error) {
	t.Helper()
	env, err := config.Load(config.Options{Args: args})
	if err != nil {
		t.Fatal(err)
	}
	b := config.NewBinder(env)
	s := flyway.Bind(b)
	for _, k := range b.Keys() {
		if b.Meaning(k) == "" {
			t.Errorf("%s has no meaning", k)
		}
	}
	return s, b.Err()
}

// TestBindReadsSpringsNames: Spring Boot's defaults, and its
// spring.flyway.* keys read as app.flyway.*.
func TestBindReadsSpringsNames(t *testing.T) {
	s, err := bind(t)
	if err != nil || !reflect.DeepEqual(s, flyway.Defaults()) {
		t.Errorf("no settings: %+v, %v; want Spring Boot's defaults %+v", s, err, flyway.Defaults())
	}
	d := flyway.Defaults()
	if !d.Enabled || strings.Join(d.Locations, ",") != "classpath:db/migration" || d.Table != "flyway_schema_history" ||
		d.BaselineOnMigrate || d.BaselineVersion != "1" || d.BaselineDescription != "<< Flyway Baseline >>" || !d.ValidateOnMigrate || d.OutOfOrder {
		t.Errorf("Defaults() = %+v, not Spring Boot's", d)
	}
	s, err = bind(t, "--spring.flyway.enabled=false", "--spring.flyway.locations=classpath:db/migration,filesystem:/srv/migrations",
		"--app.flyway.table=schema_history", "--app.flyway.baseline-on-migrate=true", "--app.flyway.baseline-version=2_1",
		"--app.flyway.baselineDescription=legacy", "--app.flyway.validate-on-migrate=false", "--app.flyway.out-of-order=true")
	want := flyway.Settings{Locations: []string{"classpath:db/migration", "filesystem:/srv/migrations"}, Table: "schema_history",
		BaselineOnMigrate: true, BaselineVersion: "2.1", BaselineDescription: "legacy", OutOfOrder: true}
	if err != nil || !reflect.DeepEqual(s, want) {
		t.Errorf("got %+v, %v\nwant %+v", s, err, want)
	}
	for arg, reason := range map[string]string{
		"--app.flyway.baseline-version=1.x":   "version may only contain 0..9",
		"--app.flyway.locations=s3:bucket/db": "only classpath:",
		"--app.flyway.table=":                 "no table named",
		"--app.flyway.enabled=maybe":          "app.flyway.enabled",
	} {
		if _, err := bind(t, arg); err == nil || !strings.Contains(err.Error(), reason) {
			t.Errorf("%s: %v, want a refusal with %q", arg, err, reason)
		}
	}
}
