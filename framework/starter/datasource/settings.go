package datasource

import (
	"cmp"
	"fmt"
	"time"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/datasource"
)

// The settings that name the database: Spring Boot's DataSourceProperties
// and R2dbcProperties, spring. renamed app.
const (
	urlKey   = "app.datasource.url"
	r2dbcKey = "app.r2dbc.url"
	hikari   = "app.datasource.hikari."
)

// settings are the pool's options, and the setting that named the
// database (app.datasource.url, or app.r2dbc.url when only that is set),
// to name in the report when it cannot be used.
type settings struct {
	opts datasource.Options
	key  string
}

// bind reads the datasource settings, with Spring Boot's names and
// HikariCP's meanings: a 0 for a timeout or a lifetime is "none", as in
// Hikari, and a value below Hikari's least is refused (Hikari puts its
// default in its place, with a warning). The connection timeout is 5 s,
// not Hikari's 30 s, and each statement is bounded (5 s), which Spring's
// JdbcTemplate is not, because a request waits for both: an outage should
// be a prompt 503, not a hung client (decision 6).
func bind(b *config.Binder) settings {
	const p = "app.datasource."
	s := settings{key: urlKey, opts: datasource.Options{
		URL:      config.Bind(b, urlKey, "", datasource.URL, "the PostgreSQL database, postgres://host:port/db or JDBC's jdbc:postgresql://host:port/db?user=... (several hosts, host1:5432,host2:5432, for fail-over): the datasource starter opens a pool to it (empty: none)"),
		Username: config.Bind(b, p+"username", "", config.String, "overrides the URL's user"),
		Password: config.Bind(b, p+"password", "", config.String, "overrides the URL's password (never shown)"),
	}}
	name := config.Bind(b, p+"name", "", config.String, "the data source's name, which names the pool when hikari.pool-name is unset")
	o := &s.opts
	o.PoolName = config.Bind(b, hikari+"pool-name", cmp.Or(name, datasource.DefaultPoolName), config.String, "the pool's name, in the meters' pool tag and the log")
	o.MaxPoolSize = int32(config.Bind(b, hikari+"maximum-pool-size", datasource.DefaultMaxPoolSize, config.IntIn(1, 10_000), "connections in the pool at most, idle and in use"))
	o.MinIdle = int32(config.Bind(b, hikari+"minimum-idle", int(o.MaxPoolSize), config.IntIn(0, 10_000), "idle connections kept open, opened at start-up, below which idle ones are not retired; unset, maximum-pool-size: a pool of fixed size, as Hikari's (a larger value is maximum-pool-size)"))
	o.ConnectionTimeout = hikariTimeout(config.Bind(b, hikari+"connection-timeout", datasource.DefaultConnectionTimeout, zeroOrAtLeast(250*time.Millisecond), "bound on waiting for a connection of the pool, opening one included; past it the request is a 503 (0: none; at least 250ms)"))
	o.IdleTimeout = hikariTimeout(config.Bind(b, hikari+"idle-timeout", datasource.DefaultIdleTimeout, zeroOrAtLeast(10*time.Second), "a connection idle this long is closed while more than minimum-idle are (0: never; at least 10s)"))
	o.MaxLifetime = hikariTimeout(config.Bind(b, hikari+"max-lifetime", datasource.DefaultMaxLifetime, zeroOrAtLeast(30*time.Second), "a connection this old is closed once idle, each up to 2.5% sooner (0: never; at least 30s)"))
	o.ValidationTimeout = config.Bind(b, hikari+"validation-timeout", datasource.DefaultValidationTimeout, config.DurationAtLeast(250*time.Millisecond), "bound on the ping that checks an idle connection before it is lent, and the keepalive's; one that does not answer is closed and another used (at least 250ms; at most connection-timeout)")
	o.KeepaliveTime = hikariTimeout(config.Bind(b, hikari+"keepalive-time", datasource.DefaultKeepaliveTime, zeroOrAtLeast(30*time.Second), "how often the idle connections are pinged, to close those a network cut off without a word (0: never, as when not below max-lifetime; at least 30s)"))
	o.QueryTimeout = config.Bind(b, "app.jdbc.template.query-timeout", datasource.DefaultQueryTimeout, config.DurationAtLeast(100*time.Millisecond), "bound on each statement, on the server (statement_timeout) and in the client; past it the request is a 503")
	if o.URL == "" {
		// A reactive Spring application names its database with R2DBC's
		// settings; pgx's one pool serves what Spring splits into a
		// DataSource and a ConnectionFactory, so they name it here when
		// the datasource URL is unset.
		o.URL = config.Bind(b, r2dbcKey, "", datasource.R2DBCURL, "an R2DBC URL, r2dbc:postgresql://host:port/db, read when app.datasource.url is unset")
		o.Username = config.Bind(b, "app.r2dbc.username", "", config.String, "overrides app.r2dbc.url's user")
		o.Password = config.Bind(b, "app.r2dbc.password", "", config.String, "overrides app.r2dbc.url's password (never shown)")
		s.key = r2dbcKey
	}
	return s
}

// hikariTimeout is a Hikari duration as Options takes it: Hikari's 0
// ("none") is negative there, where 0 is the default.
func hikariTimeout(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// zeroOrAtLeast parses a duration of at least least, or 0 for none.
func zeroOrAtLeast(least time.Duration) func(string) (time.Duration, error) {
	return func(s string) (time.Duration, error) {
		d, err := config.DurationOrZero(s)
		if err == nil && d != 0 && d < least {
			err = fmt.Errorf("want 0 (none) or at least %v: a shorter one leaves no time for the work it bounds", least)
		}
		return d, err
	}
}
