package metrics

import (
	"maps"
	"slices"

	"github.com/springport/greeter/framework/config"
)

// Settings are management.metrics.*: whether requests are recorded, how
// their timer is published, and the labels of every series.
type Settings struct {
	Enabled bool              // record request metrics for /actuator/prometheus
	Tags    map[string]string // management.metrics.tags.*: labels of every series
	// histogram publishes http_server_requests_seconds with Micrometer's
	// buckets; histogramSet says that it was set, not defaulted.
	histogram, histogramSet bool
}

const histogramKey = "management.metrics.distribution.percentiles-histogram.http.server.requests"

// Bind reads management.metrics.* through b.
func Bind(b *config.Binder) Settings {
	return Settings{
		Enabled:      config.Bind(b, "management.metrics.enabled", true, config.Bool, "record request metrics for /actuator/prometheus and /actuator/metrics"),
		histogram:    config.Bind(b, histogramKey, false, config.Bool, "publish http_server_requests_seconds as a histogram with Micrometer's buckets (_bucket), not only _count, _sum and _max; on by default while spans are exported, for the exemplars on its buckets"),
		histogramSet: b.IsSet(histogramKey),
		Tags:         bindCommonTags(b),
	}
}

// PercentilesHistogram reports whether the request timer is published as
// a histogram. With spans exported it is unless set otherwise:
// client_golang writes exemplars (a bucket's trace) on histogram buckets
// only, and a dashboard goes from a slow bucket to its trace through
// them.
func (s Settings) PercentilesHistogram(exportsSpans bool) bool {
	return s.histogram || (exportsSpans && !s.histogramSet)
}

// bindCommonTags reads management.metrics.tags.<key>, Micrometer's common
// tags: a label of every series, named as Micrometer names a tag key.
// Spring's dashboards select on application.
func bindCommonTags(b *config.Binder) map[string]string {
	b.Describe("management.metrics.tags.<key>", "a label <key> of every series of /actuator/prometheus, as Micrometer's common tags "+
		"(a key is named as Micrometer names one: cloud.region is cloud_region)")
	const prefix = "management.metrics.tags."
	tags := config.BindPrefixed(b, prefix, []string{"application"}, config.String, func(string) string {
		return "a label of every series of /actuator/prometheus (application=...), as Spring's dashboards select on; any management.metrics.tags.<key> adds a label <key>"
	})
	for _, key := range slices.Sorted(maps.Keys(tags)) {
		if err := CheckTag(key); err != nil {
			b.Refuse(prefix+key, err.Error())
			delete(tags, key)
		}
	}
	return tags
}
