package metrics

import "github.com/prometheus/client_golang/prometheus"

// RedisPoolStats is what a Redis client's connection pools (all nodes'
// together) say of themselves at a scrape: go-redis's PoolStats.
type RedisPoolStats struct {
	Hits     uint64 // a free connection was found in the pool
	Misses   uint64 // none was free: one was dialled
	Timeouts uint64 // waiting for a free connection timed out
	Total    uint32 // connections open now
	Idle     uint32 // ... of which waiting in the pool
	Stale    uint32 // connections closed as stale (idle too long, broken), so far
}

// RedisPool reports a Redis client's connection pool. Micrometer has no
// meters for it (Spring Boot's Lettuce metrics time commands, and Lettuce
// multiplexes one connection rather than pooling), so the names are the
// framework's own: redis_pool_connections and _idle (gauges), and
// redis_pool_hits_total, _misses_total, _timeouts_total and
// _stale_connections_total (counters). stats is read once per scrape.
func (m *HTTP) RedisPool(stats func() RedisPoolStats) {
	m.registerer.MustRegister(&redisPoolCollector{stats: stats})
}

var (
	redisPoolConnections = prometheus.NewDesc("redis_pool_connections", "Connections to Redis open now.", nil, nil)
	redisPoolIdle        = prometheus.NewDesc("redis_pool_connections_idle", "Connections to Redis waiting in the pool now.", nil, nil)
	redisPoolHits        = prometheus.NewDesc("redis_pool_hits_total", "Times a free connection to Redis was found in the pool.", nil, nil)
	redisPoolMisses      = prometheus.NewDesc("redis_pool_misses_total", "Times no connection to Redis was free, so one was dialled.", nil, nil)
	redisPoolTimeouts    = prometheus.NewDesc("redis_pool_timeouts_total", "Times waiting for a free connection to Redis timed out.", nil, nil)
	redisPoolStale       = prometheus.NewDesc("redis_pool_stale_connections_total", "Connections to Redis closed as stale.", nil, nil)
)

type redisPoolCollector struct{ stats func() RedisPoolStats }

func (c *redisPoolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{redisPoolConnections, redisPoolIdle, redisPoolHits, redisPoolMisses, redisPoolTimeouts, redisPoolStale} {
		ch <- d
	}
}

func (c *redisPoolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.stats()
	ch <- prometheus.MustNewConstMetric(redisPoolConnections, prometheus.GaugeValue, float64(s.Total))
	ch <- prometheus.MustNewConstMetric(redisPoolIdle, prometheus.GaugeValue, float64(s.Idle))
	ch <- prometheus.MustNewConstMetric(redisPoolHits, prometheus.CounterValue, float64(s.Hits))
	ch <- prometheus.MustNewConstMetric(redisPoolMisses, prometheus.CounterValue, float64(s.Misses))
	ch <- prometheus.MustNewConstMetric(redisPoolTimeouts, prometheus.CounterValue, float64(s.Timeouts))
	ch <- prometheus.MustNewConstMetric(redisPoolStale, prometheus.CounterValue, float64(s.Stale))
}
