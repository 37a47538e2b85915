package metrics

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/springport/greeter/domain/message"
)

// Messages reports the message store: how many messages and bytes of text
// it holds, and the most it may hold (app.messages.max-count and
// app.messages.max-total-size), so that an alert can fire before a POST
// is refused with 507.
func (m *HTTP) Messages(usage func(context.Context) (message.Usage, error), limits message.Limits) {
	m.registry.MustRegister(&messagesCollector{usage: usage, limits: limits})
}

var (
	messagesStored  = prometheus.NewDesc("messages_stored", "Messages held now.", nil, nil)
	messagesMax     = prometheus.NewDesc("messages_stored_max", "Messages held at most (app.messages.max-count).", nil, nil)
	messageBytes    = prometheus.NewDesc("messages_text_bytes", "Bytes of message text held now.", nil, nil)
	messageBytesMax = prometheus.NewDesc("messages_text_bytes_max", "Bytes of message text held at most (app.messages.max-total-size).", nil, nil)
	messageDescs    = []*prometheus.Desc{messagesStored, messagesMax, messageBytes, messageBytesMax}
)

// messagesCollector asks the store once per scrape, rather than once per
// gauge: with PostgreSQL, that is a query.
type messagesCollector struct {
	usage  func(context.Context) (message.Usage, error)
	limits message.Limits
}

func (c *messagesCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range messageDescs {
		ch <- d
	}
}

// Collect sends the limits always, and the usage when the store answers
// (a store that is down shows in /actuator/health, and its gauges go
// missing rather than reading 0).
func (c *messagesCollector) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(messagesMax, prometheus.GaugeValue, float64(c.limits.MaxCount))
	ch <- prometheus.MustNewConstMetric(messageBytesMax, prometheus.GaugeValue, float64(c.limits.MaxBytes))
	u, err := c.usage(context.Background()) // the store bounds its own operations
	if err != nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(messagesStored, prometheus.GaugeValue, float64(u.Count))
	ch <- prometheus.MustNewConstMetric(messageBytes, prometheus.GaugeValue, float64(u.Bytes))
}
