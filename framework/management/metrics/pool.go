package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// PoolStats is what a connection pool says of itself at a scrape.
type PoolStats struct {
	Active, Idle int // connections lent out now, and waiting in the pool
	Max, Min     int // the pool's bounds
	// Acquires counts the connections lent so far, and AcquireTime is the
	// time they took to get, in all: a pool that is too small shows as
	// a growing time per acquire.
	Acquires    uint64
	AcquireTime time.Duration
	// Timeouts counts the acquires that gave up waiting for a connection.
	Timeouts uint64
	// Pending is the acquires waiting for a connection now.
	Pending int
	// Creations counts the connections opened so far, and CreationTime
	// the time they took to open, in all; Usages counts the connections
	// given back to the pool, and UsageTime the time they were lent out.
	Creations    uint64
	CreationTime time.Duration
	Usages       uint64
	UsageTime    time.Duration
}

// ConnectionPool reports a database's connection pool under the names
// Micrometer gives a Spring Boot DataSource, so that Spring's dashboards
// find them: DataSourcePoolMetrics' jdbc_connections_active, _idle, _max
// and _min, tagged name (the data source's bean name, dataSource in
// Spring), and HikariCP's as Micrometer's binder names them:
// hikaricp_connections (all), _active, _idle, _pending, _max, _min,
// hikaricp_connections_timeout_total, and the timers
// hikaricp_connections_acquire_seconds, _creation_seconds and
// _usage_seconds (summaries of count and sum), tagged pool (HikariPool-1
// in Spring). stats is read once per scrape.
//
// The timers' _max, which Micrometer publishes over a decaying window,
// is not: the pool reports its times as sums, read at each scrape.
func (m *HTTP) ConnectionPool(dataSource, pool string, stats func() PoolStats) {
	jdbc := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc("jdbc_connections_"+name, help, nil, prometheus.Labels{"name": dataSource})
	}
	hikari := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc("hikaricp_connections"+name, help, nil, prometheus.Labels{"pool": pool})
	}
	m.registerer.MustRegister(&poolCollector{stats: stats, descs: poolDescs{
		jdbcActive:   jdbc("active", "Current number of active connections that have been allocated from the data source."),
		jdbcIdle:     jdbc("idle", "Number of established but idle connections."),
		jdbcMax:      jdbc("max", "Maximum number of active connections that can be allocated at the same time."),
		jdbcMin:      jdbc("min", "Minimum number of idle connections in the pool."),
		total:        hikari("", "Total connections"),
		active:       hikari("_active", "Active connections"),
		idle:         hikari("_idle", "Idle connections"),
		pending:      hikari("_pending", "Pending threads"),
		max:          hikari("_max", "Max connections"),
		min:          hikari("_min", "Min connections"),
		timeouts:     hikari("_timeout_total", "Connection timeout total count"),
		acquireTimer: hikari("_acquire_seconds", "Connection acquire time"),
		createTimer:  hikari("_creation_seconds", "Connection creation time"),
		usageTimer:   hikari("_usage_seconds", "Connection usage time"),
	}})
}

type poolDescs struct {
	jdbcActive, jdbcIdle, jdbcMax, jdbcMin *prometheus.Desc
	total, active, idle, pending, max, min *prometheus.Desc
	timeouts, acquireTimer                 *prometheus.Desc
	createTimer, usageTimer                *prometheus.Desc
}

type poolCollector struct {
	stats func() PoolStats
	descs poolDescs
}

func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	d := c.descs
	for _, desc := range []*prometheus.Desc{d.jdbcActive, d.jdbcIdle, d.jdbcMax, d.jdbcMin,
		d.total, d.active, d.idle, d.pending, d.max, d.min, d.timeouts, d.acquireTimer, d.createTimer, d.usageTimer} {
		ch <- desc
	}
}

func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	s, d := c.stats(), c.descs
	gauge := func(desc *prometheus.Desc, v int) {
		ch <- prometheus.MustNewConstMetric(desc, prometheus.GaugeValue, float64(v))
	}
	gauge(d.jdbcActive, s.Active)
	gauge(d.jdbcIdle, s.Idle)
	gauge(d.jdbcMax, s.Max)
	gauge(d.jdbcMin, s.Min)
	gauge(d.total, s.Active+s.Idle)
	gauge(d.active, s.Active)
	gauge(d.idle, s.Idle)
	gauge(d.pending, s.Pending)
	gauge(d.max, s.Max)
	gauge(d.min, s.Min)
	ch <- prometheus.MustNewConstMetric(d.timeouts, prometheus.CounterValue, float64(s.Timeouts))
	ch <- prometheus.MustNewConstSummary(d.acquireTimer, s.Acquires, s.AcquireTime.Seconds(), nil)
	ch <- prometheus.MustNewConstSummary(d.createTimer, s.Creations, s.CreationTime.Seconds(), nil)
	ch <- prometheus.MustNewConstSummary(d.usageTimer, s.Usages, s.UsageTime.Seconds(), nil)
}
