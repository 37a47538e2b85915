package tracing

// ParseHeaders parses the form of OTEL_EXPORTER_OTLP_HEADERS: name=value
// pairs, comma-separated, each value percent-decoded, each name and value
// one that HTTP allows. The OTLP metrics starter reads
// OTEL_EXPORTER_OTLP_METRICS_HEADERS with it. The reasons name a header
// by its name, never its value.
func ParseHeaders(s string) (map[string]string, error) { return parseHeaders(s) }
