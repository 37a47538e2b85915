package actuator

import (
	"bytes"
	"net/http"
	"reflect"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/springport/greeter/framework/dispatch"
)

// /actuator/heapdump downloads a heap profile: Go's counterpart of
// Spring's HPROF heap dump, in pprof's format (gzipped protocol
// buffers; read it with `go tool pprof`). Like Spring's, it collects
// garbage first, so that the profile shows what is live, and takes one
// dump at a time: a second request while one is being taken is a 429.

// profileType is what a profile is sent as: a file to save, not to show.
var profileType = []string{"application/octet-stream"}

// heapDumps lets one heap dump run at a time.
var heapDumps sync.Mutex

func handleHeapDump(r *dispatch.Request) ([]byte, error) {
	if !heapDumps.TryLock() {
		return nil, busy("A heap dump is being taken; try again when it is done.")
	}
	defer heapDumps.Unlock()
	runtime.GC()
	var buf bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&buf, 0); err != nil {
		return nil, err
	}
	download(r, "heapdump")
	return buf.Bytes(), nil
}

// download names the answer as a file to save, stamped with the time
// it was taken.
func download(r *dispatch.Request, kind string) {
	name := kind + "-" + time.Now().UTC().Format("20060102T150405Z") + ".pb.gz"
	r.ResponseHeader().Set("Content-Disposition", `attachment; filename="`+name+`"`)
}

// busy is the answer to a profile asked for while one is being taken,
// Spring's answer to a second heap dump.
func busy(detail string) error {
	return &dispatch.Error{Status: http.StatusTooManyRequests, Detail: detail}
}

var contentDisposition = dispatch.ResponseHeader{Name: "Content-Disposition", Description: "attachment, with the file's name", Type: reflect.TypeFor[string]()}

func heapDumpRoute(base string) dispatch.Route {
	return dispatch.Route{Method: "GET", Pattern: base + "/heapdump", Produces: profileType, Errors: []int{http.StatusTooManyRequests},
		Headers: []dispatch.ResponseHeader{contentDisposition}, Handler: dispatch.Returns(handleHeapDump)}
}
