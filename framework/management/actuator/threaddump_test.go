package actuator

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/springport/greeter/framework/dispatch"

	"github.com/springport/greeter/framework/testing/polltest"
)

const sampleDump = `goroutine 1 [running]:
main.main()
	/app/main.go:10 +0x1d

goroutine 7 [chan receive, 3 minutes]:
net/http.(*conn).serve(0xc000123450, {0x9d1a30, 0xc0001b2000})
	/usr/lib/go/src/net/http/server.go:2102 +0x4e5
created by net/http.(*Server).Serve in goroutine 1
	/usr/lib/go/src/net/http/server.go:3454 +0x485

goroutine 9 [chan receive, locked to thread]:
net/http.(*conn).serve(0xc000123999, {0x9d1a30, 0xc0001b2000})
	/usr/lib/go/src/net/http/server.go:2102 +0x4e5
created by net/http.(*Server).Serve in goroutine 3
	/usr/lib/go/src/net/http/server.go:3454 +0x485

goroutine 12 [sync.Mutex.Lock]:
sync.(*Mutex).Lock(...)
	/usr/lib/go/src/sync/mutex.go:90
main.worker.func1()
	/app/main.go:22 +0x2c

goroutine 13 [sleep]:
time.Sleep(0x3b9aca00)
	/usr/lib/go/src/runtime/time.go:300 +0x116
`

func TestGroupGoroutines(t *testing.T) {
	got := groupGoroutines([]byte(sampleDump))
	want := []goroutineGroup{
		{ThreadName: "goroutine 7 and 1 more with this stack", ThreadID: 7, ThreadState: "WAITING", GoroutineState: "chan receive", GoroutineIDs: []int64{7, 9},
			StackTrace: []stackFrame{{ClassName: "net/http.(*conn)", MethodName: "serve", FileName: "server.go", LineNumber: 2102}},
			CreatedBy:  "net/http.(*Server).Serve"},
		{ThreadName: "goroutine 1", ThreadID: 1, ThreadState: "RUNNABLE", GoroutineState: "running", GoroutineIDs: []int64{1},
			StackTrace: []stackFrame{{ClassName: "main", MethodName: "main", FileName: "main.go", LineNumber: 10}}},
		{ThreadName: "goroutine 12", ThreadID: 12, ThreadState: "BLOCKED", GoroutineState: "sync.Mutex.Lock", GoroutineIDs: []int64{12},
			StackTrace: []stackFrame{{ClassName: "sync.(*Mutex)", MethodName: "Lock", FileName: "mutex.go", LineNumber: 90},
				{ClassName: "main.worker", MethodName: "func1", FileName: "main.go", LineNumber: 22}}},
		{ThreadName: "goroutine 13", ThreadID: 13, ThreadState: "TIMED_WAITING", GoroutineState: "sleep", GoroutineIDs: []int64{13},
			StackTrace: []stackFrame{{ClassName: "time", MethodName: "Sleep", FileName: "time.go", LineNumber: 300}}},
	}
	for i := range want {
		want[i].LockedMonitors, want[i].LockedSynchronizers = []struct{}{}, []struct{}{}
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		t.Errorf("got %s", g)
	}
}

// TestThreadDump takes a real dump: JSON by default, with goroutines
// parked at one line grouped, and the classic text for text/plain.
func TestThreadDump(t *testing.T) {
	var parked sync.WaitGroup
	release := make(chan struct{})
	for range 5 {
		parked.Go(func() { <-release })
	}
	defer func() { close(release); parked.Wait() }()

	h, err := dispatch.New(dispatch.Options{}, Routes(Options{Exposure: Exposure{Include: []string{ThreadDump}}})...)
	if err != nil {
		t.Fatal(err)
	}
	// The goroutines may not have reached their receive yet: the dump is
	// taken again until they have, for a while.
	var rec *httptest.ResponseRecorder
	polltest.Until(t, polltest.Timeout, "the 5 parked goroutines to be one group", func() error {
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/actuator/threaddump", nil))
		var dump threadDump
		if err := json.Unmarshal(rec.Body.Bytes(), &dump); err != nil || rec.Code != 200 {
			t.Fatalf("%d %v %.300s", rec.Code, err, rec.Body)
		}
		if !slices.ContainsFunc(dump.Threads, func(g goroutineGroup) bool {
			return len(g.GoroutineIDs) == 5 && g.ThreadState == "WAITING" && g.GoroutineState == "chan receive"
		}) {
			return fmt.Errorf("the dump: %.2000s", rec.Body)
		}
		return nil
	})

	req := httptest.NewRequest("GET", "/actuator/threaddump", nil)
	req.Header.Set("Accept", "text/plain")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/plain;charset=UTF-8" || !strings.HasPrefix(rec.Body.String(), "goroutine ") {
		t.Errorf("text dump: %d %q %.200s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
}
