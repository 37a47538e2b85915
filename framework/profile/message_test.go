package profile

import "testing"

func TestMessage(t *testing.T) {
	tests := []struct {
		explicit, defaults []string
		want               string
	}{
		{[]string{}, []string{"default"}, `No active profile set, falling back to 1 default profile: "default"`},
		{nil, []string{"local"}, `No active profile set, falling back to 1 default profile: "local"`},
		{[]string{}, []string{"local", "dev"}, `No active profile set, falling back to 2 default profiles: "local", "dev"`},
		{[]string{"dev"}, []string{"default"}, `The following 1 profile is active: "dev"`},
		{[]string{"qa", "dev"}, []string{"default"}, `The following 2 profiles are active: "qa", "dev"`},
		{[]string{"prod", "db", "web"}, []string{"local"}, `The following 3 profiles are active: "prod", "db", "web"`},
	}
	for _, tt := range tests {
		if got := Message(tt.explicit, tt.defaults); got != tt.want {
			t.Errorf("%q, defaults %q:\ngot  %s\nwant %s", tt.explicit, tt.defaults, got, tt.want)
		}
	}
}
