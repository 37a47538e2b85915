package dispatch

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strconv"
	"sync/atomic"
)

// RequestIDHeader carries the request ID in both directions.
const RequestIDHeader = "X-Request-Id"

// requestIDs makes request IDs: a random prefix drawn once per process and
// a counter, unique without a random draw per request.
type requestIDs struct {
	prefix string
	next   atomic.Uint64
}

func newRequestIDs() *requestIDs {
	var b [6]byte
	rand.Read(b[:])
	return &requestIDs{prefix: hex.EncodeToString(b[:]) + "-"}
}

// forRequest returns the client's X-Request-Id when it is sane (1 to 64
// characters of letters, digits and ._:-), and a new ID otherwise.
func (ids *requestIDs) forRequest(r *http.Request) string {
	if v := r.Header[RequestIDHeader]; len(v) == 1 && saneRequestID(v[0]) {
		return v[0]
	}
	var buf [32]byte
	b := append(buf[:0], ids.prefix...)
	return string(strconv.AppendUint(b, ids.next.Add(1), 36))
}

func saneRequestID(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}
