package jwt

// The memory of verified tokens holds no token: an /actuator/heapdump
// would otherwise hand whoever reads it every client's live token.

import (
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestVerifiedTokensHoldNoToken: after a token is verified and
// remembered, nothing the memory reaches (its map's keys and entries,
// their principals and keys) holds the token, or its signature, in clear.
func TestVerifiedTokensHoldNoToken(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	a, sign := staticAuthenticator(t, now)
	token := sign(map[string]any{"sub": "alice", "exp": now.Add(time.Hour).Unix(), "scope": "read"})
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	for range 2 { // verified, then found remembered
		if p, err := a.Authenticate(r); err != nil || p == nil {
			t.Fatalf("a valid token: %v, %v", p, err)
		}
	}
	if n := a.verified.count(); n != 1 {
		t.Fatalf("%d tokens remembered; want 1", n)
	}
	signature := token[strings.LastIndexByte(token, '.')+1:]
	for _, s := range reachableBytes(reflect.ValueOf(a.verified)) {
		if strings.Contains(s, signature) {
			t.Fatalf("the memory of verified tokens holds the token in clear (%d bytes: %.40q...)", len(s), s)
		}
	}
}

// reachableBytes returns every string, byte slice and byte array that v
// reaches through pointers, structs, slices, arrays, maps (keys and
// values) and interfaces, unexported fields included.
func reachableBytes(v reflect.Value) []string {
	var out []string
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			out = append(out, v.String())
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return
			}
			if v.Kind() == reflect.Pointer {
				if seen[v.Pointer()] {
					return
				}
				seen[v.Pointer()] = true
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			if v.Type().Elem().Kind() == reflect.Uint8 {
				b := make([]byte, v.Len())
				for i := range b {
					b[i] = byte(v.Index(i).Uint())
				}
				out = append(out, string(b))
				return
			}
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Map:
			it := v.MapRange()
			for it.Next() {
				walk(it.Key())
				walk(it.Value())
			}
		}
	}
	walk(v)
	return out
}
