package datasource

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"postgres://app:pw@db/shop", "postgres://app:pw@db/shop"},
		{"jdbc:postgresql://db:5432/shop", "postgresql://db:5432/shop"},
		{"jdbc:postgresql://db:5432/shop?user=app&password=p%40ss&sslmode=require", "postgresql://app:p%40ss@db:5432/shop?sslmode=require"},
		{"jdbc:postgresql://db1:5432,db2:5433/shop?targetServerType=primary&ApplicationName=greeter",
			"postgresql://db1:5432,db2:5433/shop?target_session_attrs=read-write&application_name=greeter"},
		{"jdbc:postgresql://db1,db2/shop?targetServerType=master", "postgresql://db1,db2/shop?target_session_attrs=read-write"},
		{"jdbc:postgresql://db1,db2/shop?targetServerType=secondary", "postgresql://db1,db2/shop?target_session_attrs=read-only"},
		{"jdbc:postgresql://db1,db2/shop?targetServerType=slave", "postgresql://db1,db2/shop?target_session_attrs=read-only"},
		{"jdbc:postgresql://db1,db2/shop?targetServerType=preferSecondary", "postgresql://db1,db2/shop?target_session_attrs=prefer-standby"},
		{"jdbc:postgresql://db1,db2/shop?targetServerType=any", "postgresql://db1,db2/shop?target_session_attrs=any"},
		{"jdbc:postgresql://db/shop?ssl=true", "postgresql://db/shop?sslmode=verify-full"},
		{"jdbc:postgresql://db/shop?ssl=true&sslmode=disable", "postgresql://db/shop?sslmode=disable"},
		{"jdbc:postgresql://db/shop?currentSchema=app&user=app", "postgresql://app@db/shop?search_path=app"},
		{"jdbc:postgresql:shop", "postgresql://localhost:5432/shop"},
		{"JDBC:PostgreSQL://[::1]:5432/shop", "postgresql://[::1]:5432/shop"},
	}
	for _, tt := range tests {
		got, err := URL(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("URL(%q):\ngot  %q, %v\nwant %q", tt.in, got, err, tt.want)
			continue
		}
		if got == "" {
			continue
		}
		if _, err := pgconn.ParseConfig(got); err != nil {
			t.Errorf("pgx does not take %q: %v", got, err)
		}
	}
}

func TestR2DBCURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"r2dbc:postgresql://app:pw@db:5432/shop", "postgresql://app:pw@db:5432/shop"},
		{"r2dbc:pool:postgres://db/shop?sslMode=VERIFY_FULL&schema=app", "postgresql://db/shop?sslmode=verify-full&search_path=app"},
	}
	for _, tt := range tests {
		if got, err := R2DBCURL(tt.in); err != nil || got != tt.want {
			t.Errorf("R2DBCURL(%q):\ngot  %q, %v\nwant %q", tt.in, got, err, tt.want)
		}
	}
}

// TestRefusedURLs refuses the URLs of other databases, naming them, and
// parameters without an equivalent, naming them; never showing a
// password.
func TestRefusedURLs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		parse    func(string) (string, error)
		in, want string
	}{
		{URL, "jdbc:mysql://db/shop?password=hunter2", "a JDBC URL of mysql; only PostgreSQL is supported"},
		{URL, "jdbc:h2:mem:test", "a JDBC URL of h2;"},
		{URL, "jdbc:sqlserver://db;password=hunter2", "a JDBC URL of sqlserver;"},
		{URL, "mysql://app:hunter2@db/shop", "want a PostgreSQL URL"},
		{URL, "jdbc:postgresql://db/shop?password=hunter2&reWriteBatchedInserts=true", "parameter reWriteBatchedInserts has no equivalent here; those that do: user, password, ApplicationName"},
		{URL, "jdbc:postgresql://db/shop?targetServerType=preferPrimary&password=hunter2", "parameter targetServerType has a value that has no equivalent"},
		{R2DBCURL, "r2dbc:mysql://app:hunter2@db/shop", "an R2DBC URL of mysql; only PostgreSQL"},
		{R2DBCURL, "postgres://app:hunter2@db/shop", "want an R2DBC URL"},
		{R2DBCURL, "r2dbc:postgresql://app:hunter2@db/shop?maxSize=5", "parameter maxSize has no equivalent"},
	}
	for _, tt := range tests {
		_, err := tt.parse(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%q: got %v, want an error that says %q without the password", tt.in, err, tt.want)
		}
	}
}
