package memstore_test

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/springport/greeter/framework/session/memstore"
)

// A store hands out session ids and reports each session's end, whatever
// ends it: a delete (a logout), the idle timeout, or the room a new
// session needs. The session scope (component.Options.Sessions) releases
// a session's components when it is told of its end. The clock here is a
// variable so that the example can let time pass.
func ExampleNew() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	s := memstore.New(memstore.Options{
		IdleTimeout: 30 * time.Minute,
		MaxSessions: 2,
		Now:         func() time.Time { return now },
		Logger:      slog.New(slog.DiscardHandler), // a service logs the first eviction's warning
	})
	defer s.Close()

	ctx := context.Background()
	names := map[string]string{} // session ids are random: the example names them
	s.OnEnd(func(id string) { fmt.Println("ended:", names[id]) })
	create := func(name string) string {
		id, err := s.Create(ctx)
		if err != nil {
			fmt.Println(err)
		}
		names[id] = name
		return id
	}

	alice := create("alice")
	create("bob")
	s.Touch(ctx, alice)      // alice is now the most recently used
	carol := create("carol") // the store is full: bob, the least recently used, ends
	fmt.Println("live:", s.Len(), "evicted:", s.Evicted())

	s.Delete(ctx, carol) // a logout

	now = now.Add(31 * time.Minute) // alice has been idle past the timeout
	live, err := s.Touch(ctx, alice)
	fmt.Println("alice live:", live, err)
	// Output:
	// ended: bob
	// live: 2 evicted: 1
	// ended: carol
	// ended: alice
	// alice live: false <nil>
}
