package metrics

import "github.com/prometheus/client_golang/prometheus"

// Gauge is one value a service reports of itself, read at each scrape:
// Micrometer's Gauge, as its Prometheus registry writes one.
type Gauge struct {
	Name  string // the Prometheus name, as orders_stored
	Help  string // what it measures, for # HELP
	Value float64
}

// Gauges registers read, which a scrape calls once for the service's own
// gauges: a service reports what it holds (a store's size and bounds)
// without this package knowing the service. A value read cannot get now
// (its store is down) it leaves out, so that the gauge goes missing rather
// than reading 0.
func (m *HTTP) Gauges(read func() []Gauge) {
	m.registerer.MustRegister(gauges(read))
}

// gauges is read as a client_golang collector. It describes nothing in
// advance (its gauges are known when read), which makes it one of
// client_golang's unchecked collectors: a name that two collectors
// report is found at the scrape, and logged, rather than at registration.
type gauges func() []Gauge

func (gauges) Describe(chan<- *prometheus.Desc) {}

func (read gauges) Collect(ch chan<- prometheus.Metric) {
	for _, g := range read() {
		desc := prometheus.NewDesc(g.Name, g.Help, nil, nil)
		m, err := prometheus.NewConstMetric(desc, prometheus.GaugeValue, g.Value)
		if err != nil {
			m = prometheus.NewInvalidMetric(desc, err)
		}
		ch <- m
	}
}
