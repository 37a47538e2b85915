// Command gin serves the measured endpoints on gin, for bench/run.
package main

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/springport/greeter/bench/peers/internal/peer"
	"github.com/springport/greeter/bench/reference"
)

func main() {
	peer.Main(peer.HTTP(handler))
}

// handler is the measured endpoints on a gin engine in release mode, with
// no middleware (gin.New, not gin.Default's logger and recovery).
func handler(messages *peer.Messages, valA int32) http.Handler {
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.GET("/api/hello", func(c *gin.Context) {
		c.JSON(http.StatusOK, reference.Message{Text: reference.Greeting})
	})
	e.GET("/api/hi", func(c *gin.Context) {
		c.String(http.StatusOK, "Hi")
	})
	e.GET("/api/hello/:id", func(c *gin.Context) {
		id, err := strconv.ParseInt(c.Param("id"), 10, 32)
		if err != nil {
			c.String(http.StatusBadRequest, "id is not a 32-bit integer")
			return
		}
		c.JSON(http.StatusOK, reference.Message{Text: reference.Greeting + " " + strconv.FormatInt(id, 10)})
	})
	e.GET("/api/number/val-a", func(c *gin.Context) {
		c.JSON(http.StatusOK, valA)
	})
	e.POST("/api/messages", func(c *gin.Context) {
		// gin has no body limit of its own; its documentation wraps the body.
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, reference.MaxBodyBytes)
		var in struct {
			Text *string `json:"text" binding:"required"`
		}
		if err := c.ShouldBindJSON(&in); err != nil {
			c.String(http.StatusBadRequest, "want a JSON body with text")
			return
		}
		messages.Append(*in.Text)
		c.Status(http.StatusCreated)
	})
	return e
}
