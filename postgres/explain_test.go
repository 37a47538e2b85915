package postgres

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/springport/greeter/internal/enginetest"
)

// TestGetUsesTheIndex is the cheap proof that Get costs O(log n): its
// plan looks the message up in the unique index on position, both as
// planned for one index and as the generic plan that a prepared statement
// falls back on.
func TestGetUsesTheIndex(t *testing.T) {
	db, err := Open(t.Context(), Options{URL: enginetest.Postgres(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := t.Context()
	const n = 100_000
	for _, sql := range []string{
		"INSERT INTO greeter_messages (position, text) SELECT g, 'message ' || g FROM generate_series(0, $1 - 1) g",
		"UPDATE greeter_message_bounds SET n = $1",
	} {
		if _, err := db.pool.Exec(ctx, sql, n); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	if _, err := db.pool.Exec(ctx, "ANALYZE greeter_messages"); err != nil {
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
		if !strings.Contains(text, "Index Scan using greeter_messages_position_key on greeter_messages") ||
			strings.Contains(text, "Seq Scan on greeter_messages") {
			t.Errorf("%s: Get is not an index lookup:\n%s", mode, text)
		} else {
			t.Logf("%s:\n%s", mode, text)
		}
	}
}
