package server

import (
	"fmt"
	"time"
)

// processStart is when this program started, near enough: its packages'
// variables are set before main runs.
var processStart = time.Now()

// Started returns the announcement of server.port (Port.SetAnnouncement)
// as Spring Boot's "Started" line: "Started greeter in 0.412 seconds
// (process running for 0.530)", start-up timed from began and the process
// from its start. Tools find the port in the addr that follows it.
func Started(service string, began time.Time) func() string {
	return func() string {
		return fmt.Sprintf("Started %s in %.3f seconds (process running for %.3f)", service,
			time.Since(began).Seconds(), time.Since(processStart).Seconds())
	}
}
