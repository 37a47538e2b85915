package datasource_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing/fstest"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/springport/greeter/framework/boot"
	fwdatasource "github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/starter/datasource"
)

// link is what a client posts to the shortener.
type link struct {
	URL string `json:"url"`
}

var linkCode = dispatch.Path[string]("code")

// shortener keeps short links in PostgreSQL: it names the starter, and
// gets the pool it opened from app.datasource.url in Start. The pool's
// settings, its health, its meters, and the 503 when the database is out
// of reach are the starter's; what is left is the service's SQL.
var shortener = boot.Service[struct{}]{
	Name:     "shortener",
	Starters: []boot.Starter{datasource.Starter},
	Start: func(ctx context.Context, app *boot.App, _ struct{}) error {
		pool, err := datasource.RequirePool(app)
		if err != nil {
			return err
		}
		app.Routes(
			dispatch.Route{Method: "PUT", Pattern: "/links/{code}", Inputs: []dispatch.Input{linkCode}, Status: http.StatusNoContent,
				Handler: dispatch.Accepts(func(r *dispatch.Request, l link) error {
					_, err := pool.Exec(r.Context(), "INSERT INTO links (code, url) VALUES ($1, $2) ON CONFLICT (code) DO UPDATE SET url = $2", linkCode.Get(r), l.URL)
					return err // a 503 when PostgreSQL is out of reach, a 500 otherwise
				})},
			dispatch.Route{Method: "GET", Pattern: "/links/{code}", Inputs: []dispatch.Input{linkCode},
				Handler: dispatch.Returns(func(r *dispatch.Request) (link, error) {
					var l link
					err := pool.QueryRow(r.Context(), "SELECT url FROM links WHERE code = $1", linkCode.Get(r)).Scan(&l.URL)
					if errors.Is(err, pgx.ErrNoRows) {
						return l, &dispatch.Error{Status: http.StatusNotFound, Detail: "No link " + linkCode.Get(r) + "."}
					}
					return l, err
				})},
		)
		return nil
	},
}

// Example starts the shortener without app.datasource.url: it needs a
// database, and start-up stops naming the setting, as Spring Boot stops a
// service that needs a DataSource when no URL is set. Given
// --app.datasource.url=postgres://host:5432/links (or
// SPRING_DATASOURCE_URL=jdbc:postgresql://host:5432/links), it serves.
func Example() {
	_, err := boot.New(context.Background(), shortener, boot.Process{})
	fmt.Println(err)
	// Output:
	// setting app.datasource.url="" from the default is invalid: the service needs a PostgreSQL database, and none is set: set app.datasource.url to postgres://host:port/database, or jdbc:postgresql://host:port/database
}

// ExampleWith gives the starter what every connection needs and the
// migration to run before the service starts, as greeter does with its
// READ COMMITTED and its Flyway migrations (cmd/greeter/stores.go; a
// service with Flyway's migrations alone gives BindMigrate: Flyway(its
// embedded files), as ExampleFlyway shows). A
// transaction that may conflict with others runs in Transact, which runs
// it again after a serialization failure or a deadlock.
func ExampleWith() {
	starter := datasource.With(datasource.Options{
		Configure: func(c *pgxpool.Config) {
			c.ConnConfig.RuntimeParams["search_path"] = "shortener"
		},
		Migrate: func(ctx context.Context, _ *boot.App, pool *fwdatasource.Pool) error {
			// On a connection of its own, without the statement timeout.
			conn, err := pgx.ConnectConfig(ctx, pool.MigrationConfig())
			if err != nil {
				return err
			}
			defer conn.Close(ctx)
			_, err = conn.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS shortener;
				CREATE TABLE IF NOT EXISTS links (code text PRIMARY KEY, url text NOT NULL, hits bigint NOT NULL DEFAULT 0)`)
			return err
		},
	})
	_ = boot.Service[struct{}]{
		Name:     "shortener",
		Starters: []boot.Starter{starter},
		Start: func(ctx context.Context, app *boot.App, _ struct{}) error {
			pool, err := datasource.RequirePool(app)
			if err != nil {
				return err
			}
			app.Routes(dispatch.Route{Method: "POST", Pattern: "/links/{code}/hits", Inputs: []dispatch.Input{linkCode},
				Handler: dispatch.Returns(func(r *dispatch.Request) (int64, error) {
					var hits int64
					err := pool.Transact(r.Context(), fwdatasource.TxOptions{TxOptions: pgx.TxOptions{IsoLevel: pgx.Serializable}},
						func(ctx context.Context, tx pgx.Tx) error {
							return tx.QueryRow(ctx, "UPDATE links SET hits = hits + 1 WHERE code = $1 RETURNING hits", linkCode.Get(r)).Scan(&hits)
						})
					return hits, err
				})})
			return nil
		},
	}
}

// ExampleFlyway migrates the database with Flyway's migrations before the
// service starts, as Spring Boot does with Flyway on the classpath: the
// files of db/migration (classpath:db/migration) of the service's
// embedded files, which a service embeds with //go:embed db/migration;
// app.flyway.* are Spring Boot's spring.flyway.* (flyway.Bind), bound
// with the starter's settings: a bad one stops start-up before anything
// is opened.
func ExampleFlyway() {
	resources := fstest.MapFS{
		"db/migration/V1__links.sql": {Data: []byte("CREATE TABLE links (code text PRIMARY KEY, url text NOT NULL, hits bigint NOT NULL DEFAULT 0);\n")},
	}
	service := shortener
	service.Starters = []boot.Starter{datasource.With(datasource.Options{BindMigrate: datasource.Flyway(resources)})}
	_, err := boot.New(context.Background(), service, boot.Process{Args: []string{"--app.flyway.baseline-on-migrate=maybe"}})
	fmt.Println(err)
	// Output:
	// setting app.flyway.baseline-on-migrate="maybe" from command-line argument --app.flyway.baseline-on-migrate=maybe is invalid: want true or false (or on/off, yes/no, 1/0), in any case
}
