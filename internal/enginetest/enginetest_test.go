package enginetest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
)

func TestPostgresGivesAnEmptyDatabaseOfItsOwn(t *testing.T) {
	PostgresServer(t)
	var first string
	t.Run("use", func(t *testing.T) {
		first = Postgres(t)
		second := Postgres(t)
		if first == second {
			t.Fatalf("two calls gave the same database %s", first)
		}
		conn, err := pgx.Connect(context.Background(), first)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), "CREATE TABLE t (x int)"); err != nil {
			t.Fatal(err)
		}
		if n := TerminateBackends(t, first); n != 1 {
			t.Errorf("TerminateBackends cut %d connections, want the test's one", n)
		}
		if err := conn.Ping(context.Background()); err == nil {
			t.Error("the connection still answers after TerminateBackends")
		}
	})
	conn, err := pgx.Connect(context.Background(), first)
	if err == nil {
		conn.Close(context.Background())
		t.Errorf("database %s still exists after its test ended", first)
	}
}

func TestRedisRemovesTheTestsKeys(t *testing.T) {
	RedisServer(t)
	var server, prefix string
	t.Run("use", func(t *testing.T) {
		server, prefix = Redis(t)
		opts, _ := redis.ParseURL(server)
		client := redis.NewClient(opts)
		defer client.Close()
		for _, k := range []string{"a", "b"} {
			if err := client.Set(context.Background(), prefix+k, "v", 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
	})
	opts, _ := redis.ParseURL(server)
	client := redis.NewClient(opts)
	defer client.Close()
	keys, err := client.Keys(context.Background(), prefix+"*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 0 {
		t.Errorf("keys left after the test: %q", keys)
	}
}
