package postgres_test

import (
	"testing"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/domain/message/messagetest"
	"github.com/springport/greeter/internal/enginetest"
)

func TestMessagesContract(t *testing.T) {
	enginetest.PostgresServer(t) // skipped once, not in every behaviour
	messagetest.Run(t, func(t *testing.T) message.Store {
		db, _ := fresh(t)
		return db.Messages()
	})
}

// Two DBs on one database are two instances of the service.

func TestTwoInstancesAppend(t *testing.T) {
	a, url := fresh(t)
	b := open(t, url)
	messagetest.ConcurrentAppends(t, 8, 500, a.Messages(), b.Messages())
}

func TestTwoInstancesRemoveAndReplace(t *testing.T) {
	a, url := fresh(t)
	b := open(t, url)
	messagetest.ConcurrentOperations(t, 100, a.Messages(), b.Messages())
}
