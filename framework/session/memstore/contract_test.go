package memstore_test

import (
	"testing"
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/component/sessiontest"
	"github.com/springport/greeter/framework/session/memstore"
)

func TestSessionsContract(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T, idle time.Duration) component.SessionStore {
		s := memstore.New(memstore.Options{IdleTimeout: idle})
		t.Cleanup(func() { s.Close() })
		return s
	})
}
