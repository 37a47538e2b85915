package datasource_test

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/starter/datasource"
	"github.com/springport/greeter/framework/testing/enginetest"
)

// poolSample is the sample of HikariCP's meter name, tagged with the
// pool links-pool and the common tag application=shortener, in a scrape
// of s.
func poolSample(t *testing.T, s *boottest.Instance, name string) float64 {
	t.Helper()
	body := send(t, s, "GET", "/actuator/prometheus").Body
	m := regexp.MustCompile(`(?m)^` + name + `\{application="shortener",pool="links-pool"\} (\S+)$`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("/actuator/prometheus has no %s{application=\"shortener\",pool=\"links-pool\"}:\n%s", name, body)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPoolTimers: HikariCP's creation and usage timers, which the pool's
// pgx tracer measures, count what Hikari's do: a connection opened adds
// one creation and the time it took; a connection given back adds one
// usage and the time it was lent out, which the test brackets between
// what it saw of the hold and the release. (TestPoolMeters sees an
// acquire pending while the pool is exhausted.)
func TestPoolTimers(t *testing.T) {
	t.Parallel()
	s := boottest.Start(t, service(datasource.Starter), []string{"--app.datasource.url=" + enginetest.Postgres(t),
		"--app.datasource.hikari.maximum-pool-size=3", "--app.datasource.hikari.minimum-idle=0",
		"--app.datasource.hikari.pool-name=links-pool", "--management.metrics.tags.application=shortener",
		"--management.endpoints.web.exposure.include=prometheus"}, nil)
	open := poolSample(t, s, "hikaricp_connections") // the start-up's CREATE TABLE may have left one idle
	created := poolSample(t, s, "hikaricp_connections_creation_seconds_count")
	creationTime := poolSample(t, s, "hikaricp_connections_creation_seconds_sum")
	usages := poolSample(t, s, "hikaricp_connections_usage_seconds_count")
	usageTime := poolSample(t, s, "hikaricp_connections_usage_seconds_sum")

	asked := time.Now()
	if r := send(t, s, "POST", "/hold?n=3"); r.Status != 204 {
		t.Fatalf("POST /hold?n=3: %d %s", r.Status, r.Body)
	}
	heldBy := time.Now()
	if got := poolSample(t, s, "hikaricp_connections_creation_seconds_count") - created; got != 3-open {
		t.Errorf("hikaricp_connections_creation_seconds_count rose by %v when 3 connections were held of %v open, want %v", got, open, 3-open)
	}
	opening := poolSample(t, s, "hikaricp_connections_creation_seconds_sum") - creationTime
	if took := heldBy.Sub(asked).Seconds(); (open < 3 && opening <= 0) || opening > took {
		t.Errorf("hikaricp_connections_creation_seconds_sum rose by %vs opening %v connections within the %vs that POST /hold took", opening, 3-open, took)
	}

	// Held for a while, scraping meanwhile: the pool's meters are read
	// at the scrape, and none may end a lending.
	for time.Since(heldBy) < 300*time.Millisecond {
		poolSample(t, s, "hikaricp_connections_active")
		time.Sleep(20 * time.Millisecond) // the pace of the scrapes, not a wait for something
	}
	releasing := time.Now()
	if r := send(t, s, "POST", "/release"); r.Status != 204 {
		t.Fatalf("POST /release: %d", r.Status)
	}
	released := time.Now()
	if got := poolSample(t, s, "hikaricp_connections_usage_seconds_count") - usages; got != 3 {
		t.Errorf("hikaricp_connections_usage_seconds_count rose by %v when 3 connections were given back, want 3", got)
	}
	lent := poolSample(t, s, "hikaricp_connections_usage_seconds_sum") - usageTime
	least, most := 3*releasing.Sub(heldBy).Seconds(), 3*released.Sub(asked).Seconds()
	if lent < least || lent > most {
		t.Errorf("hikaricp_connections_usage_seconds_sum rose by %vs for 3 connections held; want between %vs and %vs, 3 times what the test saw of the lending", lent, least, most)
	}
}
