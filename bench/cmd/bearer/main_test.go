package main

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/springport/greeter/framework/security/jwt"
)

// TestTokenIsAccepted: the token is one the service accepts with the
// public key written and the audience bench/run sets, as its subject
// with its scopes.
func TestTokenIsAccepted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bearer.pub")
	token, err := run(path, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	a, err := jwt.New(context.Background(), jwt.Options{PublicKeyLocation: "file:" + path, Audiences: []string{"greeter"}})
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/api/hello", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	p, err := a.Authenticate(r)
	if err != nil || p == nil || p.Name != "5f1c2b8e-7a4d-4c1e-9b0a-3d2e6f8a9c71" || len(p.Authorities) != 5 {
		t.Fatalf("got %+v, %v; want the token's subject with its five scopes", p, err)
	}
}
