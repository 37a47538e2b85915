package actuator

import (
	"net/http"
	"strings"

	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/framework/management/metrics"
)

// MeterRegistry is what /actuator/metrics reads: the meters' names, and a meter
// narrowed to the series that have every tag given (false when it does
// not exist or none has them). *metrics.HTTP is one.
type MeterRegistry interface {
	MetricNames() []string
	Metric(name string, tags []metrics.Tag) (metrics.Meter, bool)
}

// metricName is the name of /actuator/metrics/{requiredMetricName}, named
// as Spring names the path variable (the uri tag of its requests).
var metricName = dispatch.Path[string]("requiredMetricName").Describe("a meter's dotted name, such as http.server.requests")

type metricNames struct {
	Names []string `json:"names"`
}

func handleMetricNames(m MeterRegistry) func(*dispatch.Request) (metricNames, error) {
	return func(*dispatch.Request) (metricNames, error) {
		return metricNames{Names: m.MetricNames()}, nil
	}
}

// handleMetric answers /actuator/metrics/{requiredMetricName}?tag=key:value&tag=…, as
// Spring's MetricsEndpoint does: the statistics merged over the series
// that have every tag, 400 for a tag that is not key:value, and 404 for
// an unknown meter or when no series has the tags.
func handleMetric(m MeterRegistry) func(*dispatch.Request) (metrics.Meter, error) {
	return func(r *dispatch.Request) (metrics.Meter, error) {
		name := metricName.Get(r)
		var tags []metrics.Tag
		for _, t := range r.URL.Query()["tag"] {
			k, v, ok := strings.Cut(t, ":")
			if !ok {
				return metrics.Meter{}, &dispatch.Error{Status: http.StatusBadRequest,
					Detail: "Each tag parameter must be in the form 'key:value' but was: '" + dispatch.Clip(t) + "'."}
			}
			tags = append(tags, metrics.Tag{Key: k, Value: v})
		}
		meter, ok := m.Metric(name, tags)
		if !ok {
			detail := "No metric '" + dispatch.Clip(name) + "'."
			if len(tags) > 0 {
				detail = "No metric '" + dispatch.Clip(name) + "' has the tags asked for."
			}
			return metrics.Meter{}, &dispatch.Error{Status: http.StatusNotFound, Detail: detail}
		}
		return meter, nil
	}
}

func metricsRoutes(base string, m MeterRegistry) []dispatch.Route {
	return []dispatch.Route{
		{Method: "GET", Pattern: base + "/metrics", Produces: jsonTypes, Handler: dispatch.Returns(handleMetricNames(m))},
		{Method: "GET", Pattern: base + "/metrics/{requiredMetricName}", Produces: jsonTypes, Errors: []int{http.StatusBadRequest, http.StatusNotFound},
			Inputs: []dispatch.Input{metricName}, Handler: dispatch.Returns(handleMetric(m))},
	}
}
