package reference

import "testing"

func TestArgs(t *testing.T) {
	defaults := map[string]string{"server.port": "8080", "app.datasource.url": ""}
	got, err := Args([]string{"--server.port=0"}, defaults)
	if err != nil || got["server.port"] != "0" || got["app.datasource.url"] != "" {
		t.Errorf("Args(--server.port=0) = %v, %v", got, err)
	}
	if defaults["server.port"] != "8080" {
		t.Error("Args changed the defaults")
	}
	for _, bad := range []string{"--server.prot=1", "server.port=1", "--server.port"} {
		if _, err := Args([]string{bad}, defaults); err == nil || err.Error() != `unknown argument "`+bad+`"; understood: --app.datasource.url=…, --server.port=…` {
			t.Errorf("Args(%q): %v", bad, err)
		}
	}
}
