// Package otlp pushes a service's meters to an OpenTelemetry collector
// over OTLP/HTTP, as Micrometer's OtlpMeterRegistry does for a Spring
// Boot service with micrometer-registry-otlp: every step, the meters
// that /actuator/prometheus shows, read from the same registry
// (metrics.HTTP.Snapshot) and named, typed and tagged as Micrometer's
// registry sends them (convert.go), in an ExportMetricsServiceRequest
// posted with the framework's OTLP/HTTP client
// (framework/management/internal/otlphttp), and once more when the
// service stops. It is what the OTLP metrics starter
// (framework/starter/otlpmetrics) brings in: a service that does not name
// it links neither this package nor protobuf's encoder for it.
package otlp

import (
	"context"
	"crypto/tls"
	"log/slog"
	"sync"
	"time"

	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"

	"github.com/springport/greeter/framework/management/internal/otlphttp"
	"github.com/springport/greeter/framework/management/metrics"
)

// Options say what is pushed, where and how often.
type Options struct {
	// URL is the collector's OTLP/HTTP metrics endpoint,
	// http://localhost:4318/v1/metrics by default. A user and password
	// in it are sent as HTTP basic authentication.
	URL string
	// Headers are sent with every export; their values are secrets,
	// never logged.
	Headers map[string]string
	// Step is how often the meters are pushed.
	Step time.Duration
	// Gzip compresses every export.
	Gzip bool
	// ConnectTimeout bounds opening a connection to the collector, and
	// ConnectTimeout+ReadTimeout each export, its retries included, as
	// Spring Boot bounds Micrometer's sender.
	ConnectTimeout, ReadTimeout time.Duration
	// TLS is that of the connections to an https collector: its CAs in
	// place of the system's, and the client's certificate for a
	// collector that asks for one (OTEL_EXPORTER_OTLP_CERTIFICATE and its
	// kin). nil keeps Go's defaults.
	TLS *tls.Config
	// BaseTimeUnit is the unit durations are sent in.
	BaseTimeUnit TimeUnit
	// Resource are the attributes of the resource the meters belong to:
	// service.name at least.
	Resource map[string]string
	// Read reads the meters (metrics.HTTP.Snapshot).
	Read func() []metrics.Snapshot
	// Logger is told, once per outage, that the meters could not be
	// pushed, and when they are pushed again.
	Logger *slog.Logger
}

// Exporter pushes the meters every step until it is shut down.
type Exporter struct {
	opts   Options
	client *otlphttp.Client
	start  time.Time // the meters count from then
	done   chan struct{}
	once   sync.Once
	// stepping lasts until Shutdown, which cancels the steps and the
	// export of one under way: its own export follows at once, and holds
	// all that the one it cut off held, the values being cumulative.
	stepping     context.Context
	stopStepping context.CancelFunc

	mu      sync.Mutex // one export at a time: the loop's, or Shutdown's last
	failing bool       // the last export failed, and that was warned about
}

// userAgent names the exporter as Micrometer's sender is not named (it
// sends Java's default), so that a collector's log tells the framework's
// exports apart.
const userAgent = "springport-otlp-metrics"

// Start pushes the meters every o.Step, on a goroutine of its own, from
// now until Shutdown. Nothing of a request waits for it: an export reads
// the registry as a scrape does, and what the collector cannot take is
// dropped, not queued, since the next export's cumulative values hold it
// too.
func Start(o Options) *Exporter {
	if o.BaseTimeUnit.Length == 0 {
		o.BaseTimeUnit = Milliseconds
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	stepping, stopStepping := context.WithCancel(context.Background())
	e := &Exporter{
		stepping: stepping, stopStepping: stopStepping,
		opts: o,
		client: otlphttp.New(otlphttp.Options{Endpoint: o.URL, Headers: o.Headers, Gzip: o.Gzip,
			Timeout: o.ConnectTimeout + o.ReadTimeout, ConnectTimeout: o.ConnectTimeout, TLS: o.TLS, UserAgent: userAgent, Items: "data points"}),
		start: time.Now(),
		done:  make(chan struct{}),
	}
	go e.loop()
	return e
}

// loop pushes at every step. A tick that comes while an export is still
// under way (a slow collector) is dropped by the ticker, so exports never
// pile up.
func (e *Exporter) loop() {
	defer close(e.done)
	tick := time.NewTicker(e.opts.Step)
	defer tick.Stop()
	for {
		select {
		case <-e.stepping.Done():
			return
		case <-tick.C:
			e.push(e.stepping)
		}
	}
}

// Shutdown stops the steps, cutting off a step's export under way (a
// slow collector's would otherwise hold the shutdown for a whole timeout
// before the last one started), pushes the meters once more, as
// Micrometer's push registries do when they close, within the export's
// timeout, and closes the client's connections. It may be called more
// than once.
func (e *Exporter) Shutdown() error {
	var err error
	e.once.Do(func() {
		e.stopStepping()
		<-e.done
		err = e.push(context.Background())
		e.client.Stop()
	})
	return err
}

// push sends one export of every meter, and tells the log when the
// collector stops taking them, once, and when it takes them again.
func (e *Exporter) push(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	err := e.export(ctx)
	if ctx.Err() != nil {
		return err // cut off by Shutdown, whose own export follows: nothing to tell
	}
	switch {
	case err != nil && !e.failing:
		e.failing = true
		e.opts.Logger.Warn("the meters could not be pushed to the OTLP collector; they are tried again every step, and this is not logged again until they are pushed",
			"url", e.client.URL(), "step", e.opts.Step.String(), "error", err.Error())
	case err != nil:
		e.opts.Logger.Debug("the meters could not be pushed to the OTLP collector", "url", e.client.URL(), "error", err.Error())
	case e.failing:
		e.failing = false
		e.opts.Logger.Info("the meters are pushed to the OTLP collector again", "url", e.client.URL())
	}
	return err
}

// export reads the meters and posts them, within the client's timeout
// and while ctx lasts.
func (e *Exporter) export(ctx context.Context) error {
	rm := convert(e.opts.Read(), e.opts.Resource, e.opts.BaseTimeUnit, e.start, time.Now())
	body, err := otlphttp.ExportRequest("data points", []*metricspb.ResourceMetrics{rm})
	if err != nil {
		return err
	}
	return e.client.Post(ctx, body)
}
