package config

import "testing"

func TestNearest(t *testing.T) {
	keys := []string{"server.port", "server.address", "management.server.port", "app.greeting", "logging.level.root"}
	tests := []struct{ key, want string }{
		{"server.prot", "server.port"},      // two letters swapped: one edit
		{"server.adress", "server.address"}, // one letter missing
		{"app.greetng", "app.greeting"},
		{"logging.levl.root", "logging.level.root"},
		{"server.foo", ""},       // nothing close
		{"app.greetingzzzz", ""}, // four edits: too far for its length
	}
	for _, tt := range tests {
		got, _ := nearest(tt.key, keys)
		if got != tt.want {
			t.Errorf("nearest(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"port", "prot", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3}}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
