// Command shortener is a third service built on the framework, written
// only against its exported packages: short links kept in PostgreSQL.
// It shows what a service on a database needs from the web layer: the
// datasource starter with Flyway's migrations, validated bodies and
// parameters, pages sorted as a client asks, a Created answer with its
// Location, and a redirect.
//
//	go run ./examples/shortener --server.port=8082 --app.datasource.url=postgres://postgres@127.0.0.1:5432/postgres
//	curl -i localhost:8082/links -H 'Content-Type: application/json' -d '{"url":"https://go.dev/doc/","code":"go-docs"}'
//	curl -i localhost:8082/go/go-docs
//	curl 'localhost:8082/links?size=10&sort=hits,desc'
package main

import (
	"context"
	"crypto/rand"
	"embed"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/springport/greeter/framework/boot"
	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/dispatch"
	starter "github.com/springport/greeter/framework/starter/datasource"
)

func main() { boot.Main(service) }

// migrations are Flyway's versioned migrations (classpath:db/migration),
// which the starter runs before the service starts.
//
//go:embed db/migration
var migrations embed.FS

var service = boot.Service[struct{}]{
	Name:        "shortener",
	Description: "Short links, kept in PostgreSQL.",
	Starters:    []boot.Starter{starter.With(starter.Options{BindMigrate: starter.Flyway(migrations)})},
	Start:       start,
}

// NewLink is what a client posts: the URL to shorten and, if it wants one,
// the code to shorten it to (a pointer: a code left out is drawn at
// random, one sent is checked). Only web addresses are taken, so that a
// redirect never leads to a javascript: or file: URL.
type NewLink struct {
	URL  string  `json:"url" validate:"required,url,size=..2048" pattern:"https?://.*"`
	Code *string `json:"code,omitempty" validate:"size=3..32" pattern:"[a-z0-9-]*"`
}

// Link is a short link as the endpoints answer it.
type Link struct {
	Code    string    `json:"code"`
	URL     string    `json:"url"`
	Created time.Time `json:"created"`
	Hits    int64     `json:"hits"`
}

var (
	code = dispatch.Path[string]("code").Pattern("[a-z0-9-]{1,32}").Describe("the link's code")
	// The properties a list may be sorted by are the table's columns of
	// the same names; the dispatcher refuses any other, so that an ORDER
	// BY is never written from what a client sent.
	pages = dispatch.Pageable("code", "created", "hits").DefaultSort(dispatch.Order{Property: "created", Descending: true})
)

const columns = "code, url, created, hits"

func start(ctx context.Context, app *boot.App, _ struct{}) error {
	pool, err := starter.RequirePool(app)
	if err != nil {
		return err
	}
	// one runs a statement that returns the link named in the path.
	one := func(r *dispatch.Request, sql string) (Link, error) {
		var l Link
		err := pool.QueryRow(r.Context(), sql, code.Get(r)).Scan(&l.Code, &l.URL, &l.Created, &l.Hits)
		if errors.Is(err, pgx.ErrNoRows) {
			return l, &dispatch.Error{Status: http.StatusNotFound, Detail: "No link has the code '" + code.Get(r) + "'."}
		}
		return l, err
	}
	path, notFound := []dispatch.Input{code}, []int{http.StatusNotFound}
	app.Routes(
		dispatch.Route{Method: "POST", Pattern: "/links", Summary: "Shorten a URL", Errors: []int{http.StatusConflict},
			Handler: dispatch.Exchanges(func(r *dispatch.Request, n NewLink) (dispatch.Created[Link], error) {
				l, err := insert(r.Context(), pool, n)
				return dispatch.Created[Link]{Location: "/links/" + l.Code, Body: l}, err
			})},
		dispatch.Route{Method: "GET", Pattern: "/links", Summary: "The links, a page at a time", Inputs: []dispatch.Input{pages},
			Handler: dispatch.Returns(func(r *dispatch.Request) (dispatch.Page[Link], error) {
				p := pages.Get(r)
				rows, _ := pool.Query(r.Context(), "SELECT "+columns+", count(*) OVER () FROM links ORDER BY "+orderBy(p.Sort)+" LIMIT $1 OFFSET $2", p.Size, p.Offset())
				var total int64
				links, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (l Link, err error) {
					return l, row.Scan(&l.Code, &l.URL, &l.Created, &l.Hits, &total)
				})
				if total == 0 && p.Offset() > 0 { // past the last page: the count is not in any row
					err = errors.Join(err, pool.QueryRow(r.Context(), "SELECT count(*) FROM links").Scan(&total))
				}
				return dispatch.NewPage(links, p, total), err
			})},
		dispatch.Route{Method: "GET", Pattern: "/links/{code}", Summary: "A link", Inputs: path, Errors: notFound,
			Handler: dispatch.Returns(func(r *dispatch.Request) (Link, error) {
				return one(r, "SELECT "+columns+" FROM links WHERE code = $1")
			})},
		dispatch.Route{Method: "DELETE", Pattern: "/links/{code}", Summary: "Remove a link", Inputs: path, Errors: notFound, Status: http.StatusNoContent,
			Handler: dispatch.Runs(func(r *dispatch.Request) error {
				_, err := one(r, "DELETE FROM links WHERE code = $1 RETURNING "+columns)
				return err
			})},
		dispatch.Route{Method: "GET", Pattern: "/go/{code}", Summary: "Follow a link", Inputs: path, Errors: notFound,
			Handler: dispatch.Returns(func(r *dispatch.Request) (dispatch.Redirect, error) {
				l, err := one(r, "UPDATE links SET hits = hits + 1 WHERE code = $1 RETURNING "+columns)
				return dispatch.Redirect{Location: l.URL}, err // 302 Found, as Spring's redirect: gives
			})},
	)
	return nil
}

// orderBy writes the ORDER BY of a page: the orders asked for, whose
// properties the Pageable has checked are columns, then the code, so that
// pages never share or skip a link. Codes are lower case, so ignorecase
// changes nothing. The Pageable sorts by each property once at most, so
// the clause is as short as the list of properties allowed.
func orderBy(sort []dispatch.Order) string {
	var b strings.Builder
	for _, o := range sort {
		dir := " ASC, "
		if o.Descending {
			dir = " DESC, "
		}
		b.WriteString(o.Property)
		b.WriteString(dir)
	}
	b.WriteString("code")
	return b.String()
}

// insert stores a new link under its code, or under a code of seven
// random characters, drawn again in the unlikely case one is taken. A
// code the client chose that is taken is a 409.
func insert(ctx context.Context, pool *datasource.Pool, n NewLink) (Link, error) {
	for range 5 {
		c := randomCode()
		if n.Code != nil {
			c = *n.Code
		}
		l := Link{Code: c, URL: n.URL}
		err := pool.QueryRow(ctx, "INSERT INTO links (code, url) VALUES ($1, $2) ON CONFLICT (code) DO NOTHING RETURNING created", c, n.URL).Scan(&l.Created)
		switch {
		case err == nil:
			return l, nil
		case !errors.Is(err, pgx.ErrNoRows):
			return l, err
		case n.Code != nil:
			return l, &dispatch.Error{Status: http.StatusConflict, Detail: "The code '" + c + "' is taken."}
		}
	}
	return Link{}, errors.New("five random codes in a row were taken")
}

// randomCode draws seven characters of base32 in lower case ([a-z2-7]):
// 32⁷, about 34 billion codes.
func randomCode() string { return strings.ToLower(rand.Text()[:7]) }
