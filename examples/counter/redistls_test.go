package main

// Sessions in a Redis that speaks only TLS, started by the test.

import (
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
	"github.com/springport/greeter/framework/testing/redistest"
)

// TestSessionsInTLSRedis starts a Redis that speaks only TLS and asks
// for client certificates, with a CA the test makes, and keeps two
// instances' sessions there through rediss:// and an SSL bundle with a
// client certificate: both serve one session's counter. Without the
// bundle, Redis's certificate is not trusted, and start-up stops naming
// app.data.redis.url.
func TestSessionsInTLSRedis(t *testing.T) {
	t.Parallel()
	redis := redistest.MutualTLS(t) // skips, or fails in CI, without redis-server

	bundle := "--app.ssl.bundle.pem.redis."
	args := []string{"--server.port=0", "--app.session.store-type=redis",
		"--app.data.redis.url=rediss://" + redis.Addr + "/0",
		"--app.data.redis.ssl.bundle=redis",
		bundle + "truststore.certificate=file:" + redis.CAFile,
		bundle + "keystore.certificate=" + redis.ClientCertFile,
		bundle + "keystore.private-key=" + redis.ClientKeyFile}
	a, b := boottest.Start(t, service, args, nil), boottest.Start(t, service, args, nil)
	c := newClient(t, a.URL)
	c.expect("POST", "/counters/tls", `{"by":4}`, 200, `"value":4`)
	c.base = b.URL
	c.expect("POST", "/counters/tls", `{"by":1}`, 200, `"value":5`)

	report, err := boottest.FailToStart(t, service, args[:3], nil)
	if err == nil || !strings.Contains(report, "app.data.redis.url") || !strings.Contains(report, "certificate") {
		t.Errorf("rediss:// without the bundle, Redis's certificate signed by an unknown CA: %v\n%s", err, report)
	}
}
