package component_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"

	"github.com/springport/greeter/framework/component"
)

func TestWebSocketLifetime(t *testing.T) {
	t.Parallel()
	var r component.Registry
	var built atomic.Int64
	perConnection := component.Provide(&r, component.Def[*Alpha]{Name: "perConnection", Scope: component.WebSocket, New: fresh[Alpha]("perConnection", nil, &built)})
	hubRef := provideHolder[*Alpha](&r, "hub", component.Singleton)
	c := start(t, &r)
	hub := resolve(t, c, hubRef)

	var mu sync.Mutex
	instances := map[int64]*Alpha{}
	mux := http.NewServeMux()
	// GET /ws answers every message with the serial of the connection's
	// instance, resolved afresh each time through the hub's handle and
	// through the component's reference.
	mux.HandleFunc("GET /ws", func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			return // Accept has answered
		}
		defer conn.CloseNow()
		ctx, release := c.WebSocket(r.Context())
		defer func() {
			if err := release(); err != nil {
				t.Errorf("release: %v", err)
			}
		}()
		for {
			if _, _, err := conn.Read(ctx); err != nil {
				return // the client closed the connection
			}
			reply := func() string {
				viaHandle, err := hub.h.Get(ctx)
				if err != nil {
					return err.Error()
				}
				byRef, err := perConnection.Get(ctx, c)
				if err != nil {
					return err.Error()
				}
				if viaHandle != byRef {
					return "two instances in one connection"
				}
				if viaHandle.closed() {
					return "closed while its connection is open"
				}
				mu.Lock()
				instances[viaHandle.serial] = viaHandle
				mu.Unlock()
				return strconv.FormatInt(viaHandle.serial, 10)
			}()
			if err := conn.Write(ctx, websocket.MessageText, []byte(reply)); err != nil {
				return
			}
		}
	})
	srv := httptest.NewServer(c.Middleware(mux))
	defer srv.Close()

	dial := func() *websocket.Conn {
		conn, _, err := websocket.Dial(t.Context(), srv.URL+"/ws", nil)
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		t.Cleanup(func() { conn.CloseNow() })
		return conn
	}
	// ask returns the instance the connection's scope holds.
	ask := func(conn *websocket.Conn) *Alpha {
		t.Helper()
		if err := conn.Write(t.Context(), websocket.MessageText, []byte("which?")); err != nil {
			t.Fatal(err)
		}
		_, msg, err := conn.Read(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		serial, err := strconv.ParseInt(string(msg), 10, 64)
		if err != nil {
			t.Fatalf("server: %s", msg)
		}
		mu.Lock()
		defer mu.Unlock()
		return instances[serial]
	}

	conn1, conn2 := dial(), dial()
	first := ask(conn1)
	if again := ask(conn1); again != first {
		t.Errorf("one connection got instances %d and %d; want one", first.serial, again.serial)
	}
	second := ask(conn2)
	if second == first {
		t.Errorf("two connections share instance %d", first.serial)
	}
	if again := ask(conn2); again != second {
		t.Errorf("connection 2 got instances %d and %d; want one", second.serial, again.serial)
	}
	if got := built.Load(); got != 2 {
		t.Errorf("perConnection built %d times; want 2, one per connection", got)
	}

	if err := conn1.Close(websocket.StatusNormalClosure, "bye"); err != nil {
		t.Fatalf("closing connection 1: %v", err)
	}
	eventually(t, "connection 1's instance closed after the connection closed", first.closed)
	if second.closed() {
		t.Errorf("closing connection 1 released connection 2's instance")
	}
	if again := ask(conn2); again != second {
		t.Errorf("connection 2 got a new instance after connection 1 closed")
	}
	if err := conn2.Close(websocket.StatusNormalClosure, "bye"); err != nil {
		t.Fatalf("closing connection 2: %v", err)
	}
	eventually(t, "connection 2's instance closed after the connection closed", second.closed)
	for _, a := range []*Alpha{first, second} {
		if n := a.closes.Load(); n != 1 {
			t.Errorf("instance %d closed %d times; want 1", a.serial, n)
		}
	}
}

// A websocket-scoped component may use the session of the request that
// opened the connection, directly, since the session outlives it.
func TestWebSocketUsesSession(t *testing.T) {
	t.Parallel()
	var r component.Registry
	perSession := declare[Beta](&r, "perSession", component.Session)
	type conn struct{ session *Beta }
	perConnection := component.Provide(&r, component.Def[*conn]{Name: "perConnection", Scope: component.WebSocket,
		Needs: []component.Dep{component.Need[*Beta]()},
		New: func(c *component.Context) (*conn, error) {
			s, err := component.Get[*Beta](c)
			return &conn{s}, err
		}})
	c := start(t, &r)
	srv := httptest.NewServer(c.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, release := c.WebSocket(r.Context())
		defer release()
		cn, err := perConnection.Get(ctx, c)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		s, err := perSession.Get(r.Context(), c)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, cn.session == s)
	})))
	defer srv.Close()
	if _, body := get(t, srv.Client(), srv.URL); body != "true" {
		t.Errorf("the connection's component holds another session's instance")
	}
}
