package boot_test

// The Redis settings that stop start-up. (Sessions in a TLS-only Redis,
// through these settings, are tested in examples/counter, whose session
// components can be saved in Redis; the tester's cannot.)

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/springport/greeter/framework/boot/boottest"
)

// TestBadRedisSettingsAreRefused: a Redis setting that cannot be used
// stops start-up, the report naming it, its value (a secret's masked), its
// origin and why; no password is shown.
func TestBadRedisSettingsAreRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	redis := []string{"--app.session.store-type=redis", "--app.data.redis.password=hunter2", "--app.data.redis.sentinel.password=hunter2"}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--app.data.redis.ssl.bundle=nope"}, []string{"Property: app.data.redis.ssl.bundle", `Value: "nope"`,
			"Origin: command-line argument --app.data.redis.ssl.bundle=nope", "Reason: no SSL bundle nope is declared"}},
		{[]string{"--app.data.redis.ssl.bundle=b", "--app.ssl.bundle.pem.b.truststore.certificate=file:" + filepath.Join(dir, "missing.pem")},
			[]string{"Property: app.ssl.bundle.pem.b.truststore.certificate", `Value: "file:` + filepath.Join(dir, "missing.pem") + `"`,
				"Reason: cannot read the file: no such file or directory"}},
		{[]string{"--app.data.redis.ssl.bundle=b", "--app.ssl.bundle.pem.b.truststore.certificate=" + notPEM},
			[]string{"Property: app.ssl.bundle.pem.b.truststore.certificate", "Reason: the file holds no PEM certificate"}},
		{[]string{"--app.data.redis.ssl.bundle=b", "--app.ssl.bundle.pem.b.keystore.certificate=" + notPEM},
			[]string{"Property: app.ssl.bundle.pem.b.keystore.certificate", "Reason: the certificate needs its private key"}},
		{[]string{"--app.data.redis.cluster.nodes=10.0.0.1:7000,10.0.0.2"}, []string{"Property: app.data.redis.cluster.nodes",
			`Reason: "10.0.0.2" is not host:port`}},
		{[]string{"--app.data.redis.sentinel.nodes=s1:26379,s2:99999", "--app.data.redis.sentinel.master=m"},
			[]string{"Property: app.data.redis.sentinel.nodes", `Reason: "s2:99999": the port is not a number from 1 to 65535`}},
		{[]string{"--app.data.redis.sentinel.master=mymaster"}, []string{"Property: app.data.redis.sentinel.master",
			"Reason: a Sentinel master needs its Sentinels"}},
	}
	for _, tt := range tests {
		report, err := boottest.FailToStart(t, tester(), append(append([]string{"--server.port=0"}, redis...), tt.args...), nil)
		if err == nil {
			t.Errorf("%v: started", tt.args)
			continue
		}
		for _, w := range append(tt.want, "APPLICATION FAILED TO START") {
			if !strings.Contains(report, w) {
				t.Errorf("%v: the report lacks %q:\n%s", tt.args, w, report)
			}
		}
		if strings.Contains(report, "hunter2") {
			t.Errorf("%v: the report shows a password:\n%s", tt.args, report)
		}
	}
}
