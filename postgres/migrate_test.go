package postgres_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/internal/enginetest"
	"github.com/springport/greeter/postgres"
)

// TestInstancesStartingTogetherMigrateOnce starts several instances at the
// same moment on an empty database: all must start, and the schema must
// be migrated once.
func TestInstancesStartingTogetherMigrateOnce(t *testing.T) {
	url := enginetest.Postgres(t)
	const instances = 4
	dbs := make([]*postgres.DB, instances)
	errs := make([]error, instances)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range instances {
		wg.Go(func() {
			<-start
			dbs[i], errs[i] = postgres.Open(t.Context(), postgres.Options{URL: url})
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("instance %d: %v", i, err)
			continue
		}
		t.Cleanup(dbs[i].Close)
	}
	if t.Failed() {
		return
	}
	var applied, versions int
	query(t, url, "SELECT count(*) FILTER (WHERE version_id = 1), count(*) FROM greeter_schema_version", &applied, &versions)
	if applied != 1 || versions != 2 {
		t.Errorf("greeter_schema_version records version 1 %d times in %d rows, want once, beside version 0", applied, versions)
	}
	var gooseDefault bool
	query(t, url, "SELECT to_regclass('goose_db_version') IS NOT NULL", &gooseDefault)
	if gooseDefault {
		t.Error("goose's default version table was created; the service's own should be the only one")
	}
	for i, db := range dbs {
		if err := db.Messages().Append(t.Context(), message.Message{Text: "from an instance"}); err != nil {
			t.Errorf("instance %d: Append: %v", i, err)
		}
	}
}

func TestOpenAgainIsANoOp(t *testing.T) {
	db, url := fresh(t)
	if err := db.Messages().Append(t.Context(), message.Message{Text: "kept"}); err != nil {
		t.Fatal(err)
	}
	again := open(t, url)
	if m, err := again.Messages().Get(t.Context(), 0); err != nil || m.Text != "kept" {
		t.Errorf("after opening again, Get(0) = %v, %v; want the message kept", m, err)
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	db, url := fresh(t)
	db.Close()
	query(t, url, "INSERT INTO greeter_schema_version (version_id, is_applied) VALUES (7, true)")
	_, err := postgres.Open(t.Context(), postgres.Options{URL: url})
	if err == nil {
		t.Fatal("Open accepted a schema at version 7")
	}
	want := "the database schema is at version 7, newer than the newest this binary knows (1)"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("Open's error:\ngot  %v\nwant one saying %q", err, want)
	}
	var rows int
	query(t, url, "SELECT count(*) FROM greeter_schema_version", &rows)
	if rows != 3 {
		t.Errorf("greeter_schema_version has %d rows after the refusal, want the 3 it had", rows)
	}
}
