package main

import (
	"context"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/management/metrics"
)

// messageGauges reports the message store: how many messages and bytes of
// text it holds, and the most it may hold (app.messages.max-count and
// app.messages.max-total-size), so that an alert can fire before a POST is
// refused with 507. The store is asked once per scrape, not once per
// gauge: with PostgreSQL that is a query. A store that does not answer
// shows in /actuator/health, and its usage gauges go missing rather than
// reading 0.
func messageGauges(usage func(context.Context) (message.Usage, error), limits message.Limits) func() []metrics.Gauge {
	return func() []metrics.Gauge {
		gauges := []metrics.Gauge{
			{Name: "messages_stored_max", Help: "Messages held at most (app.messages.max-count).", Value: float64(limits.MaxCount)},
			{Name: "messages_text_bytes_max", Help: "Bytes of message text held at most (app.messages.max-total-size).", Value: float64(limits.MaxBytes)},
		}
		u, err := usage(context.Background()) // the store bounds its own operations
		if err != nil {
			return gauges
		}
		return append(gauges,
			metrics.Gauge{Name: "messages_stored", Help: "Messages held now.", Value: float64(u.Count)},
			metrics.Gauge{Name: "messages_text_bytes", Help: "Bytes of message text held now.", Value: float64(u.Bytes)})
	}
}
