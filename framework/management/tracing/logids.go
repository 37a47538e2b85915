package tracing

import (
	"context"

	"go.opentelemetry.io/otel/trace"
)

// LogIDs are the ids of the trace and span of ctx, if it is in one: what
// a log line about a request carries (logging.HandlerOptions.Trace).
func LogIDs(ctx context.Context) (traceID, spanID string, ok bool) {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return "", "", false
	}
	return sc.TraceID().String(), sc.SpanID().String(), true
}
