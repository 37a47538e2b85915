package component_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/session/memstore"
)

// Sequence hands out increasing numbers.
type Sequence struct{ last int }

func (s *Sequence) Next() int { s.last++; return s.last }

// Ticket is made anew for every consumer; it takes its number from the
// Sequence.
type Ticket struct{ Number int }

// A singleton is built once, at Start; a prototype is built for every
// resolution. Dependencies are declared with Need, so that Start checks the
// graph before it builds anything.
func ExampleProvide() {
	var reg component.Registry
	seq := component.Provide(&reg, component.Def[*Sequence]{
		Name: "sequence",
		New:  func(*component.Context) (*Sequence, error) { return &Sequence{}, nil },
	})
	ticket := component.Provide(&reg, component.Def[*Ticket]{
		Name:  "ticket",
		Scope: component.Prototype,
		Needs: []component.Dep{component.Need[*Sequence]()},
		New: func(c *component.Context) (*Ticket, error) {
			s, err := component.Get[*Sequence](c)
			if err != nil {
				return nil, err
			}
			return &Ticket{Number: s.Next()}, nil
		},
	})

	c, err := reg.Start(nil, component.Options{}) // no active profiles
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	ctx := context.Background()
	t1, _ := ticket.Get(ctx, c)
	t2, _ := ticket.Get(ctx, c)
	s, _ := seq.Get(ctx, c)
	fmt.Println("tickets:", t1.Number, t2.Number, "last:", s.last)
	for _, info := range c.Components() {
		fmt.Println(info.Name, info.Scope, info.Dependencies)
	}
	// Output:
	// tickets: 1 2 last: 2
	// sequence singleton []
	// ticket prototype [sequence]
}

// Visits counts one session's requests.
type Visits struct{ n int }

// A session-scoped component has one instance per HTTP session. The
// container's Middleware opens the scope for each request; the handler
// resolves the instance of the request's session with Ref.Get (a
// longer-lived component would use a Handle, declared with NeedHandle).
// The first resolution in a request without a live session starts one and
// sets its cookie. A Request-scoped component is used the same way, with
// one instance per request.
func ExampleContainer_Middleware() {
	sessions := memstore.New(memstore.Options{})
	defer sessions.Close()

	var reg component.Registry
	visits := component.Provide(&reg, component.Def[*Visits]{
		Name:  "visits",
		Scope: component.Session,
		New:   func(*component.Context) (*Visits, error) { return &Visits{}, nil },
	})
	c, err := reg.Start(nil, component.Options{Sessions: sessions})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	h := c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := visits.Get(r.Context(), c)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		v.n++ // one session's requests may run concurrently: real state locks
		fmt.Fprintf(w, "visit %d", v.n)
	}))

	get := func(cookie *http.Cookie) *http.Cookie {
		r := httptest.NewRequest("GET", "/", nil)
		if cookie != nil {
			r.AddCookie(cookie)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		set := w.Result().Cookies()
		fmt.Println(strings.TrimSpace(w.Body.String()), "new session:", len(set) > 0)
		if len(set) > 0 {
			return set[0]
		}
		return cookie
	}
	alice := get(nil)
	get(alice)
	get(alice)
	get(nil) // another client: another session
	fmt.Println("cookie:", alice.Name)
	// Output:
	// visit 1 new session: true
	// visit 2 new session: false
	// visit 3 new session: false
	// visit 1 new session: true
	// cookie: SESSION
}
