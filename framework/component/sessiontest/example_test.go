package sessiontest_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/component/sessiontest"
	"github.com/springport/greeter/framework/session/memstore"
	"github.com/springport/greeter/framework/session/redisstore"
)

// A session store's package holds it to the contract in one test: the
// body below is the body of func TestSessionsContract(t *testing.T) in the
// store's _test.go file. Run calls the function it is given for a fresh
// store in each subtest, with the idle timeout that subtest needs.
//
// It is compiled, not run: it needs the test's *testing.T.
func ExampleRun() {
	var t *testing.T // the test's own

	sessiontest.Run(t, func(t *testing.T, idle time.Duration) component.SessionStore {
		s := memstore.New(memstore.Options{IdleTimeout: idle})
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// A store that also keeps the session components' state, so that several
// instances of a service share sessions, is held to the shared contract
// as well, in a second test. Its stores must not end sessions by
// themselves while the test runs.
//
// It is compiled, not run: it needs the test's *testing.T, and a Redis.
func ExampleRunShared() {
	var t *testing.T // the test's own

	url, ok := os.LookupEnv("REDIS_URL")
	if !ok {
		t.Skip("REDIS_URL names no Redis server to test against")
	}
	sessiontest.RunShared(t, func(t *testing.T) component.SharedSessionStore {
		s, err := redisstore.Open(context.Background(), redisstore.Options{
			URL:         url,
			Namespace:   "sessiontest:" + t.Name(), // a fresh, empty store for each subtest
			IdleTimeout: time.Hour,
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
