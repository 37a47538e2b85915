// Command bearer makes what bench/run's callgrind step needs to measure a
// request with a bearer token: a new 2048-bit RSA key, whose public half
// it writes to a PEM file (the service's public-key-location), and a
// token signed with it (RS256), which it prints. The token's claims are
// those of an identity provider's access token of about 700 characters:
// issuer, subject, audience, a day's validity, scopes and an id.
//
//	bearer PUBLIC-KEY-FILE
package main

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"time"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: bearer PUBLIC-KEY-FILE")
		os.Exit(2)
	}
	token, err := run(os.Args[1], time.Now())
	if err != nil {
		fmt.Fprintln(os.Stderr, "bearer:", err)
		os.Exit(1)
	}
	fmt.Println(token)
}

// run writes a new key's public half to path and returns a token signed
// with it, valid for a day from now.
func run(path string, now time.Time) (string, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return "", err
	}
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o644); err != nil {
		return "", err
	}
	header := map[string]any{"alg": "RS256", "typ": "JWT", "kid": "bench-2048"}
	claims := map[string]any{
		"iss":   "https://idp.example.com/realms/main",
		"sub":   "5f1c2b8e-7a4d-4c1e-9b0a-3d2e6f8a9c71",
		"aud":   "greeter",
		"exp":   now.Add(24 * time.Hour).Unix(),
		"iat":   now.Unix(),
		"jti":   "0b6e3f4a-2c1d-4e8f-a7b9-5c3d1e2f4a6b",
		"scope": "openid profile email read write",
	}
	h, err := json.Marshal(header)
	if err != nil {
		return "", err
	}
	c, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	input := base64.RawURLEncoding.EncodeToString(h) + "." + base64.RawURLEncoding.EncodeToString(c)
	sum := sha256.Sum256([]byte(input))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
	if err != nil {
		return "", err
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}
