package actuator

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/springport/greeter/framework/dispatch"
)

var profileName = regexp.MustCompile(`^attachment; filename="(heapdump|cpuprofile)-\d{8}T\d{6}Z\.pb\.gz"$`)

// isProfile reports whether body is a gzipped pprof profile.
func isProfile(body []byte) bool {
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return false
	}
	b, err := io.ReadAll(zr)
	return err == nil && len(b) > 0
}

func profileServer(t *testing.T) *dispatch.Dispatcher {
	t.Helper()
	h, err := dispatch.New(dispatch.Options{}, Routes(Options{Exposure: Exposure{Include: []string{HeapDump, CPUProfile}},
		Access: map[string]string{HeapDump: AccessUnrestricted}, MaxCPUProfile: 2 * time.Second})...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestHeapDump(t *testing.T) {
	rec := httptest.NewRecorder()
	profileServer(t).ServeHTTP(rec, httptest.NewRequest("GET", "/actuator/heapdump", nil))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/octet-stream" ||
		!profileName.MatchString(rec.Header().Get("Content-Disposition")) || !isProfile(rec.Body.Bytes()) {
		t.Errorf("heapdump: %d %v", rec.Code, rec.Header())
	}
}

func TestCPUProfile(t *testing.T) {
	h := profileServer(t)
	get := func(target string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		return rec
	}
	for _, bad := range []string{"0", "3", "-1"} {
		if rec := get("/actuator/cpuprofile?seconds=" + bad); rec.Code != 400 {
			t.Errorf("seconds=%s: %d, want 400 (from 1 to 2)", bad, rec.Code)
		}
	}
	// Two at once: one profiles, the other is told to come back.
	var wg sync.WaitGroup
	codes := make(chan *httptest.ResponseRecorder, 2)
	for range 2 {
		wg.Go(func() { codes <- get("/actuator/cpuprofile?seconds=1") })
	}
	wg.Wait()
	close(codes)
	got := map[int]int{}
	for rec := range codes {
		got[rec.Code]++
		if rec.Code == 200 && (!profileName.MatchString(rec.Header().Get("Content-Disposition")) || !isProfile(rec.Body.Bytes())) {
			t.Errorf("profile: %v", rec.Header())
		}
	}
	if got[200] != 1 || got[429] != 1 {
		t.Errorf("two profiles at once: %v, want one 200 and one 429", got)
	}
}
