package metrics

import (
	"context"

	"github.com/springport/greeter/domain/message"
)

// Messages reports the message store: how many messages and bytes of text
// it holds, and the most it may hold (app.messages.max-count and
// app.messages.max-total-size), so that an alert can fire before a POST
// is refused with 507.
func (m *HTTP) Messages(usage func(context.Context) (message.Usage, error), limits message.Limits) {
	m.registry.register(func() []family {
		return collectMessages(usage, limits)
	})
}

// collectMessages asks the store once per scrape, rather than once per
// gauge: with PostgreSQL, that is a query. The limits are read always,
// and the usage when the store answers (a store that is down shows in
// /actuator/health, and its gauges go missing rather than reading 0).
func collectMessages(usage func(context.Context) (message.Usage, error), limits message.Limits) []family {
	all := []family{
		single("messages_stored_max", "Messages held at most (app.messages.max-count).", gaugeType, float64(limits.MaxCount)),
		single("messages_text_bytes_max", "Bytes of message text held at most (app.messages.max-total-size).", gaugeType, float64(limits.MaxBytes)),
	}
	u, err := usage(context.Background()) // the store bounds its own operations
	if err != nil {
		return all
	}
	return append(all,
		single("messages_stored", "Messages held now.", gaugeType, float64(u.Count)),
		single("messages_text_bytes", "Bytes of message text held now.", gaugeType, float64(u.Bytes)))
}
