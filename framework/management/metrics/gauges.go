package metrics

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
	m.registry.register(func() []family {
		gauges := read()
		families := make([]family, len(gauges))
		for i, g := range gauges {
			families[i] = single(g.Name, g.Help, gaugeType, g.Value)
		}
		return families
	})
}
