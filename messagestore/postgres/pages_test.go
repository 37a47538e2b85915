package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/testing/enginetest"
)

// TestPagesStayBalanced runs random Appends, Removes and Replaces against
// a model, with small pages, and checks the layout after each: the
// contract sees only what the store answers, not that it keeps the bounds
// on page sizes that make a Remove cost O(sqrt(n)).
func TestPagesStayBalanced(t *testing.T) {
	t.Parallel()
	enginetest.PostgresServer(t)
	for _, size := range []int{1, 2, 3, 5} {
		t.Run(pageSizeName(size), func(t *testing.T) {
			db, url := fresh(t)
			setPageSize(t, url, size)
			s := db.Messages()
			ctx := t.Context()
			conn := connect(t, url)
			rng := rand.New(rand.NewPCG(uint64(size), 2))
			var model []string
			for step := range 400 {
				// Grow to about 40 messages, then shrink to none, twice,
				// so that pages fill, empty and merge at every position.
				growing := step%200 < 100
				var what string
				switch p := rng.IntN(100); {
				case len(model) == 0 || growing && p < 60 || !growing && p < 10:
					text := fmt.Sprintf("m%d", step)
					what = fmt.Sprintf("Append(%q)", text)
					if err := s.Append(ctx, message.Message{Text: text}); err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					model = append(model, text)
				case p < 80:
					i := rng.IntN(len(model))
					what = fmt.Sprintf("Remove(%d)", i)
					if err := s.Remove(ctx, int64(i)); err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					model = slices.Delete(model, i, i+1)
				default:
					i, text := rng.IntN(len(model)), fmt.Sprintf("r%d", step)
					what = fmt.Sprintf("Replace(%d, %q)", i, text)
					if err := s.Replace(ctx, int64(i), message.Message{Text: text}); err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					model[i] = text
				}
				if err := checkLayout(ctx, conn, size, model); err != nil {
					t.Fatalf("step %d, after %s: %v", step, what, err)
				}
			}
		})
	}
}

// checkLayout checks that the tables hold exactly the texts of want, in
// order, laid out in pages as the migration's comments say: starts
// cumulative from base, slots dense from first_slot, page ids increasing along the
// collection, no page empty or holding more than size, any two neighbours
// holding more than size together, and no message outside a page.
func checkLayout(ctx context.Context, conn *pgx.Conn, size int, want []string) error {
	var base, n int64
	if err := conn.QueryRow(ctx, "SELECT base, n FROM greeter_message_bounds").Scan(&base, &n); err != nil {
		return err
	}
	if n != int64(len(want)) {
		return fmt.Errorf("n = %d, want %d", n, len(want))
	}
	type page struct{ id, start, firstSlot, count, minSlot, maxSlot int64 }
	rows, err := conn.Query(ctx, `SELECT p.page_id, p.start, p.first_slot, count(m.slot), coalesce(min(m.slot), -1), coalesce(max(m.slot), -1)
FROM greeter_message_pages p LEFT JOIN greeter_messages m USING (page_id)
GROUP BY p.page_id, p.start, p.first_slot ORDER BY p.start`)
	if err != nil {
		return err
	}
	pages, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (page, error) {
		var p page
		err := r.Scan(&p.id, &p.start, &p.firstSlot, &p.count, &p.minSlot, &p.maxSlot)
		return p, err
	})
	if err != nil {
		return err
	}
	next := base // the start the next page must have
	for k, p := range pages {
		switch {
		case p.start != next:
			return fmt.Errorf("page %d starts at %d, want %d: %v", p.id, p.start, next, pages)
		case p.count == 0 || p.count > int64(size):
			return fmt.Errorf("page %d holds %d messages, want 1 to %d: %v", p.id, p.count, size, pages)
		case p.minSlot != p.firstSlot || p.maxSlot != p.firstSlot+p.count-1:
			return fmt.Errorf("page %d holds %d messages at slots %d to %d, want from %d: %v", p.id, p.count, p.minSlot, p.maxSlot, p.firstSlot, pages)
		case k > 0 && p.id <= pages[k-1].id:
			return fmt.Errorf("page %d follows page %d: ids must increase along the collection: %v", p.id, pages[k-1].id, pages)
		case k > 0 && p.count+pages[k-1].count <= int64(size):
			return fmt.Errorf("pages %d and %d hold %d messages together, which one page of %d can: %v", pages[k-1].id, p.id, p.count+pages[k-1].count, size, pages)
		}
		next += p.count
	}
	if next-base != n {
		return fmt.Errorf("the pages hold %d messages, want %d: %v", next-base, n, pages)
	}
	var outside int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM greeter_messages m WHERE NOT EXISTS (SELECT FROM greeter_message_pages p WHERE p.page_id = m.page_id)").Scan(&outside); err != nil {
		return err
	}
	if outside > 0 {
		return fmt.Errorf("%d messages belong to no page", outside)
	}
	rows, err = conn.Query(ctx, "SELECT convert_from(m.text, 'UTF8') FROM greeter_messages m JOIN greeter_message_pages p USING (page_id) ORDER BY p.start + m.slot - p.first_slot")
	if err != nil {
		return err
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("the pages hold, in order of position:\n%q\nwant %q", got, want)
	}
	return nil
}

// connect opens a connection of its own to the database of url, closed
// when the test ends.
func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}
