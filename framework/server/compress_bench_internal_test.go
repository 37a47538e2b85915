package server

import (
	"net/http"
	"testing"
)

// discardResponse is a ResponseWriter that keeps nothing, so that a
// benchmark counts compression's allocations alone.
type discardResponse struct{ h http.Header }

func (d *discardResponse) Header() http.Header         { return d.h }
func (d *discardResponse) WriteHeader(int)             {}
func (d *discardResponse) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardResponse) Flush()                      {}

// BenchmarkCompressedResponse gzips an answer of unknown length, written
// as the dispatcher writes a list (pieces a little over 32KB), or as a
// small document at once.
func BenchmarkCompressedResponse(b *testing.B) {
	for _, tt := range []struct {
		name        string
		size, piece int
	}{{"5KB", 5 << 10, 5 << 10}, {"200KB in 33KB pieces", 200 << 10, 33 << 10}} {
		body := text(tt.size, 9)
		h := compress(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			for rest := body; len(rest) > 0; {
				k := min(tt.piece, len(rest))
				w.Write(rest[:k])
				rest = rest[k:]
			}
		}), compressSettings{enabled: true, mimeTypes: defaultCompressedTypes, minSize: 2 << 10})
		r, _ := http.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", "gzip")
		w := &discardResponse{h: http.Header{}}
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(tt.size))
			for b.Loop() {
				clear(w.h)
				h.ServeHTTP(w, r)
			}
		})
	}
}
