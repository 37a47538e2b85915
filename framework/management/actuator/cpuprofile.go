package actuator

import (
	"bytes"
	"net/http"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/springport/greeter/framework/dispatch"
)

// /actuator/cpuprofile?seconds=N downloads a CPU profile of the next N
// seconds (10 by default), in pprof's format: what `go tool pprof` reads
// from net/http/pprof's /debug/pprof/profile, behind the actuator's
// exposure rules rather than on a port of its own. The process can take
// one CPU profile at a time, so a second request while one runs is a
// 429, as a second heap dump is.

// maxCPUProfile bounds the seconds a client may ask for: a profile holds
// a connection, and a worker of the runtime, for that long.
const maxCPUProfile = 60 * time.Second

const defaultCPUProfileSeconds = 10

var profileSeconds = dispatch.OptionalQuery[int32]("seconds").Describe("how long to profile, in seconds")

func handleCPUProfile(limit time.Duration) func(*dispatch.Request) ([]byte, error) {
	return func(r *dispatch.Request) ([]byte, error) {
		seconds, given := profileSeconds.Lookup(r)
		if !given {
			seconds = min(defaultCPUProfileSeconds, int32(limit/time.Second))
		}
		if seconds < 1 || time.Duration(seconds)*time.Second > limit {
			return nil, &dispatch.Error{Status: http.StatusBadRequest,
				Detail: "seconds must be from 1 to " + strconv.Itoa(int(limit/time.Second)) + "."}
		}
		var buf bytes.Buffer
		if err := pprof.StartCPUProfile(&buf); err != nil {
			return nil, busy("A CPU profile is being taken; try again when it is done.")
		}
		timer := time.NewTimer(time.Duration(seconds) * time.Second)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-r.Context().Done(): // the client left: stop profiling for nobody
		}
		pprof.StopCPUProfile()
		download(r, "cpuprofile")
		return buf.Bytes(), nil
	}
}

func cpuProfileRoute(base string, limit time.Duration) dispatch.Route {
	if limit <= 0 || limit > maxCPUProfile {
		limit = maxCPUProfile
	}
	return dispatch.Route{Method: "GET", Pattern: base + "/cpuprofile", Produces: profileType, Inputs: []dispatch.Input{profileSeconds},
		Errors: []int{http.StatusTooManyRequests}, Headers: []dispatch.ResponseHeader{contentDisposition}, Handler: dispatch.Returns(handleCPUProfile(limit))}
}
