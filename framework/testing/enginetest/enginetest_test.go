package enginetest

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
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
		conn, err := dialRedis(server, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		for _, k := range []string{"a", "b"} {
			if _, err := conn.do("SET", prefix+k, "v"); err != nil {
				t.Fatal(err)
			}
		}
	})
	conn, err := dialRedis(server, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	left, err := conn.count("EVAL", "return #redis.call('KEYS', ARGV[1])", "0", prefix+"*")
	if err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d keys left after the test", left)
	}
}
