package actuator

import "github.com/springport/greeter/framework/dispatch"

// shutdownMessage is Spring's answer to POST /actuator/shutdown.
type shutdownMessage struct {
	Message string `json:"message"`
}

// handleShutdown answers, then begins the graceful shutdown, which lets
// this answer finish as it lets every request in flight finish.
func handleShutdown(begin func()) func(*dispatch.Request) (shutdownMessage, error) {
	return func(*dispatch.Request) (shutdownMessage, error) {
		go begin()
		return shutdownMessage{Message: "Shutting down, bye..."}, nil
	}
}
