package inmem_test

import (
	"testing"
	"time"

	"github.com/springport/greeter/framework/component"
	"github.com/springport/greeter/framework/component/sessiontest"
	"github.com/springport/greeter/inmem"
)

func TestSessionsContract(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T, idle time.Duration) component.SessionStore {
		s := inmem.NewSessions(inmem.SessionOptions{IdleTimeout: idle})
		t.Cleanup(func() { s.Close() })
		return s
	})
}
