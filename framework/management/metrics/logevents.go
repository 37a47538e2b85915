package metrics

import "github.com/prometheus/client_golang/prometheus"

// LogEventCounts are the log records a service's loggers let through so
// far, by level (logging.Registry.Events, which converts to it).
type LogEventCounts struct {
	Trace, Debug, Info, Warn, Error uint64
}

// LogEvents reports the log records read counts, read once per scrape,
// as Micrometer's LogbackMetrics reports a Spring service's: the counter
// logback_events_total, tagged level (trace, debug, info, warn, error),
// under Logback's name although no Logback is here, so that the Spring
// dashboards' log panels and alerts find it as they are (see
// docs/decisions/0013-log-events-under-logbacks-name.md).
func (m *HTTP) LogEvents(read func() LogEventCounts) {
	m.registerer.MustRegister(logEvents(read))
}

// logEventsDesc is Micrometer's logback.events, as its Prometheus
// registry names a counter whose base unit (events) ends its name.
var logEventsDesc = prometheus.NewDesc("logback_events_total",
	"Number of log events that were enabled by the effective log level", []string{"level"}, nil)

type logEvents func() LogEventCounts

func (logEvents) Describe(ch chan<- *prometheus.Desc) { ch <- logEventsDesc }

func (read logEvents) Collect(ch chan<- prometheus.Metric) {
	c := read()
	for _, e := range [...]struct {
		level string
		n     uint64
	}{{"error", c.Error}, {"warn", c.Warn}, {"info", c.Info}, {"debug", c.Debug}, {"trace", c.Trace}} {
		ch <- prometheus.MustNewConstMetric(logEventsDesc, prometheus.CounterValue, float64(e.n), e.level)
	}
}
