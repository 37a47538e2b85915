// Package enginetest gives tests a PostgreSQL database and a Redis key
// prefix of their own, on the engines that the environment names, and
// removes them when the test ends.
//
// Tests that need an engine are skipped, saying which variable enables
// them, when the variable is unset (a laptop without the engines); when it
// is set and the engine cannot be reached they fail, so that CI, which
// sets both, never counts a skipped test as passed.
package enginetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The variables that enable the engine tests, with the values that reach
// the engines of the project's machines.
const (
	PostgresVar = "GREETER_TEST_POSTGRES_URL" // postgres://postgres@127.0.0.1:5432/postgres
	RedisVar    = "GREETER_TEST_REDIS_URL"    // redis://127.0.0.1:6379/0
)

// PostgresServer returns the URL of the server that PostgresVar names,
// skipping the test when it is unset.
func PostgresServer(t testing.TB) string {
	t.Helper()
	return server(t, "PostgreSQL", PostgresVar, "postgres://postgres@127.0.0.1:5432/postgres")
}

// Postgres creates an empty database of the test's own on the server that
// PostgresVar names, drops it (cutting any connection left) when the test
// ends, and returns its URL.
func Postgres(t testing.TB) string {
	t.Helper()
	server := PostgresServer(t)
	name := "greeter_test_" + randomHex(t, 8)
	admin := connect(t, server)
	defer admin.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("creating test database %s: %v", name, err)
	}
	t.Cleanup(func() {
		admin := connect(t, server)
		defer admin.Close(context.Background())
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("dropping test database %s: %v", name, err)
		}
	})
	u, err := url.Parse(server)
	if err != nil {
		t.Fatalf("%s: %v", PostgresVar, err)
	}
	u.Path = "/" + name
	return u.String()
}

// TerminateBackends cuts every connection to the database of dbURL, as a
// database restart or a network failure would, and returns how many it
// cut. The engine itself keeps running.
func TerminateBackends(t testing.TB, dbURL string) int {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	conn := connect(t, PostgresServer(t))
	defer conn.Close(context.Background())
	var n int
	err = conn.QueryRow(context.Background(),
		"SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
		u.Path[1:]).Scan(&n)
	if err != nil {
		t.Fatalf("terminating the backends of %s: %v", u.Path[1:], err)
	}
	return n
}

func connect(t testing.TB, server string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatalf("PostgreSQL at %s (%s) is unreachable: %v", PostgresVar, server, err)
	}
	return conn
}

// Redis returns the URL of the server that RedisVar names and a key
// prefix of the test's own, skipping the test when the variable is unset.
// Every key under the prefix is deleted when the test ends.
func Redis(t testing.TB) (serverURL, prefix string) {
	t.Helper()
	serverURL = RedisServer(t)
	conn, err := dialRedis(serverURL, 10*time.Second)
	if err == nil {
		_, err = conn.do("PING")
		conn.Close()
	}
	if err != nil {
		t.Fatalf("Redis at %s (%s) is unreachable: %v", RedisVar, serverURL, err)
	}
	prefix = "greeter-test:" + randomHex(t, 8) + ":"
	t.Cleanup(func() {
		conn, err := dialRedis(serverURL, 30*time.Second)
		if err != nil {
			t.Errorf("deleting the test's keys under %s: %v", prefix, err)
			return
		}
		defer conn.Close()
		if _, err := conn.count("EVAL", deleteKeysScript, "0", prefix+"*"); err != nil {
			t.Errorf("deleting the test's keys under %s: %v", prefix, err)
		}
	})
	return serverURL, prefix
}

// RedisServer returns the URL of the server that RedisVar names, skipping
// the test when it is unset.
func RedisServer(t testing.TB) string {
	t.Helper()
	return server(t, "Redis", RedisVar, "redis://127.0.0.1:6379/0")
}

// server returns the value of the variable that names engine's server,
// skipping the test, with the variable and an example, when it is unset.
func server(t testing.TB, engine, variable, example string) string {
	t.Helper()
	url := os.Getenv(variable)
	if url == "" {
		t.Skipf("%s test skipped: set %s (for example %s) to run it", engine, variable, example)
	}
	return url
}

func randomHex(t testing.TB, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
