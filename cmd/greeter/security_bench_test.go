package main

import (
	"testing"

	"github.com/springport/greeter/framework/security/password"
)

// BenchmarkSecuredRequest serves GET /api/hello with security on, as the
// user (bcrypt, remembered after its first check: basic-user), and open
// to anyone through app.security.permit-all (permitted). bench/run's
// service/hello is the same request with security off.
func BenchmarkSecuredRequest(b *testing.B) {
	stored, err := password.Encode("bcrypt", "s3cret", nil)
	if err != nil {
		b.Fatal(err)
	}
	user := []string{"--app.security.user.name=ops", "--app.security.user.password=" + stored}
	for _, v := range []struct {
		name string
		args []string
		auth bool
	}{
		{"basic-user", user, true},
		{"permitted", append(user, "--app.security.permit-all=/api/**"), false},
	} {
		b.Run(v.name, func(b *testing.B) {
			s := newServeOnce(serviceHandlerWith(b, v.args...), benchRequests[0])
			if v.auth {
				s.r.SetBasicAuth("ops", "s3cret")
			}
			s.loop(b)
		})
	}
}
