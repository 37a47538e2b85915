package postgres

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/springport/greeter/framework/datasource"
	"github.com/springport/greeter/framework/testing/enginetest"
)

// TestGetUsesTheIndex is the cheap proof that Get costs O(log n): its
// plan finds the page in the index on start, backwards, and the message
// in the primary key, both as planned for one index and as the generic
// plan that a prepared statement falls back on.
func TestGetUsesTheIndex(t *testing.T) {
	t.Parallel()
	db, err := Open(t.Context(), Options{DataSource: datasource.Options{URL: enginetest.Postgres(t)}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := t.Context()
	const n = 100_000
	for _, sql := range []string{
		"INSERT INTO greeter_message_pages (page_id, start, first_slot) SELECT g, g * 1024, 0 FROM generate_series(0, ($1 + 1023) / 1024 - 1) g",
		"INSERT INTO greeter_messages (page_id, slot, text) SELECT g / 1024, g % 1024, convert_to('message ' || g, 'UTF8') FROM generate_series(0, $1 - 1) g",
		"UPDATE greeter_message_bounds SET n = $1",
	} {
		if _, err := db.pool.Exec(ctx, sql, n); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	if _, err := db.pool.Exec(ctx, "ANALYZE greeter_messages, greeter_message_pages"); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
		conn, err := db.pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, sql := range []string{"SET plan_cache_mode = " + mode, "PREPARE get_plan(bigint) AS " + getSQL} {
			if _, err := conn.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
		rows, err := conn.Query(ctx, fmt.Sprintf("EXPLAIN EXECUTE get_plan(%d)", n-1))
		if err != nil {
			t.Fatal(err)
		}
		plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		conn.Conn().Close(ctx) // not back to the pool with the setting
		conn.Release()
		text := strings.Join(plan, "\n")
		if !strings.Contains(text, "Index Scan Backward using greeter_message_pages_start_key on greeter_message_pages") ||
			!strings.Contains(text, "Index Scan using greeter_messages_pkey on greeter_messages") ||
			strings.Contains(text, "Seq Scan on greeter_messages") ||
			strings.Contains(text, "Seq Scan on greeter_message_pages") {
			t.Errorf("%s: Get is not an index lookup:\n%s", mode, text)
		} else {
			t.Logf("%s:\n%s", mode, text)
		}
	}
}
