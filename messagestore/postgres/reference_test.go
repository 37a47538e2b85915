package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/springport/greeter/domain/message"
)

// version1Store is the message store as it ran on version 1 of the schema
// (absolute positions, texts as text), kept as the reference that
// TestMillionMessages measures the paged layout against, on a database
// of its own, in the same run, alternating with it. Its statements are
// the ones the store used then.
type version1Store struct {
	pool *pgxpool.Pool
}

const (
	version1AppendSQL = `WITH slot AS (
	UPDATE greeter_message_bounds SET n = n + 1 RETURNING base + n - 1 AS position
)
INSERT INTO greeter_messages (position, text) SELECT position, $1 FROM slot`
	version1GetSQL = `SELECT b.n, (
	SELECT m.text FROM greeter_messages m
	WHERE m.position = CASE WHEN $1::bigint >= 0 AND $1::bigint < b.n THEN b.base + $1::bigint END
)
FROM greeter_message_bounds b`
	version1ReplaceSQL = `SELECT greeter_replace_message($1, $2)`
	version1RemoveSQL  = `SELECT greeter_remove_message($1)`
)

// openVersion1 connects to the database of url, which must be at version
// 1 of the schema, without a statement timeout: its middle removals take
// seconds.
func openVersion1(t *testing.T, url string) *version1Store {
	t.Helper()
	pool, err := pgxpool.New(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return &version1Store{pool: pool}
}

func (s *version1Store) Append(ctx context.Context, m message.Message) error {
	_, err := s.pool.Exec(ctx, version1AppendSQL, m.Text)
	return err
}

func (s *version1Store) Get(ctx context.Context, index int64) (message.Message, error) {
	var n int64
	var text *string
	if err := s.pool.QueryRow(ctx, version1GetSQL, index).Scan(&n, &text); err != nil {
		return message.Message{}, err
	}
	if text == nil {
		return message.Message{}, &message.IndexError{Index: index, Len: int(n)}
	}
	return message.Message{Text: *text}, nil
}

func (s *version1Store) Replace(ctx context.Context, index int64, m message.Message) error {
	var n int64
	if err := s.pool.QueryRow(ctx, version1ReplaceSQL, index, m.Text).Scan(&n); err != nil {
		return err
	}
	if index < 0 || index >= n {
		return &message.IndexError{Index: index, Len: int(n)}
	}
	return nil
}

func (s *version1Store) Remove(ctx context.Context, index int64) error {
	var n int64
	if err := s.pool.QueryRow(ctx, version1RemoveSQL, index).Scan(&n); err != nil {
		return err
	}
	if index < 0 || index >= n {
		return &message.IndexError{Index: index, Len: int(n)}
	}
	return nil
}
