package postgres_test

import (
	"fmt"
	"testing"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/domain/message/messagetest"
	"github.com/springport/greeter/framework/testing/enginetest"
	"github.com/springport/greeter/messagestore/postgres"
)

// pageSizes are the page sizes the store is tested with: the default,
// larger than any collection of the contract, and small ones, which make
// the contract's collections span pages, so that its operations meet page
// boundaries, open pages, empty them and merge them.
var pageSizes = []int{0, 1, 2, 3}

// pageSizeName names a page size of pageSizes in a subtest.
func pageSizeName(size int) string {
	if size == 0 {
		return "DefaultPages"
	}
	return fmt.Sprintf("PagesOf%d", size)
}

// setPageSize makes the store on the database of url cut its pages at
// size messages from now on; 0 leaves the default.
func setPageSize(t *testing.T, url string, size int) {
	t.Helper()
	if size > 0 {
		query(t, url, fmt.Sprintf("UPDATE greeter_message_bounds SET page_size = %d", size))
	}
}

// empty removes every message from the database of url at once, leaving
// it as a fresh migration does, but for the page size.
func empty(t *testing.T, url string) {
	t.Helper()
	query(t, url, "TRUNCATE greeter_messages, greeter_message_pages")
	query(t, url, "UPDATE greeter_message_bounds SET n = 0, bytes = 0")
}

func TestMessagesContract(t *testing.T) {
	t.Parallel()
	enginetest.PostgresServer(t) // skipped once, not in every behaviour
	for _, size := range pageSizes {
		t.Run(pageSizeName(size), func(t *testing.T) {
			// One database for every behaviour, emptied before each:
			// creating one costs half a second.
			db, url := fresh(t)
			setPageSize(t, url, size)
			messagetest.Run(t, func(t *testing.T) message.Store {
				empty(t, url)
				return db.Messages()
			})
		})
	}
}

// Two DBs on one database are two instances of the service.

func TestTwoInstancesAppend(t *testing.T) {
	t.Parallel()
	enginetest.PostgresServer(t)
	for _, size := range []int{0, 3} {
		t.Run(pageSizeName(size), func(t *testing.T) {
			a, url := fresh(t)
			setPageSize(t, url, size)
			b := open(t, url)
			messagetest.ConcurrentAppends(t, 8, 500, a.Messages(), b.Messages())
		})
	}
}

func TestTwoInstancesRemoveAndReplace(t *testing.T) {
	t.Parallel()
	enginetest.PostgresServer(t)
	for _, size := range pageSizes {
		t.Run(pageSizeName(size), func(t *testing.T) {
			a, url := fresh(t)
			setPageSize(t, url, size)
			b := open(t, url)
			messagetest.ConcurrentOperations(t, 100, a.Messages(), b.Messages())
		})
	}
}

func TestMessagesLimits(t *testing.T) {
	t.Parallel()
	enginetest.PostgresServer(t)
	messagetest.RunLimits(t, func(t *testing.T, l message.Limits) message.Store {
		db, _ := fresh(t, withLimits(l))
		return db.Messages()
	})
}

// TestTwoInstancesAppendAtTheLimit checks that the bound holds across
// instances: each checks it in the database, under the bounds row's lock.
func TestTwoInstancesAppendAtTheLimit(t *testing.T) {
	t.Parallel()
	limits := message.Limits{MaxCount: 100}
	a, url := fresh(t, withLimits(limits))
	b := open(t, url, withLimits(limits))
	messagetest.ConcurrentAppendsAtTheLimit(t, 8, 40, 100, a.Messages(), b.Messages())
}

// withLimits sets Options.Limits.
func withLimits(l message.Limits) func(*postgres.Options) {
	return func(o *postgres.Options) { o.Limits = l }
}
