// Command echo serves the measured endpoints on echo, for bench/run.
package main

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/springport/greeter/bench/peers/internal/peer"
	"github.com/springport/greeter/bench/reference"
)

func main() {
	peer.Main(peer.HTTP(handler))
}

// handler is the measured endpoints on an echo instance, with no
// middleware but echo's body limit on the POST.
func handler(messages *peer.Messages, valA int32) http.Handler {
	e := echo.New()
	e.GET("/api/hello", func(c echo.Context) error {
		return c.JSON(http.StatusOK, reference.Message{Text: reference.Greeting})
	})
	e.GET("/api/hi", func(c echo.Context) error {
		return c.String(http.StatusOK, "Hi")
	})
	e.GET("/api/hello/:id", func(c echo.Context) error {
		id, err := strconv.ParseInt(c.Param("id"), 10, 32)
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, "id is not a 32-bit integer")
		}
		return c.JSON(http.StatusOK, reference.Message{Text: reference.Greeting + " " + strconv.FormatInt(id, 10)})
	})
	e.GET("/api/number/val-a", func(c echo.Context) error {
		return c.JSON(http.StatusOK, valA)
	})
	e.POST("/api/messages", func(c echo.Context) error {
		var in struct {
			Text *string `json:"text"`
		}
		if err := c.Bind(&in); err != nil || in.Text == nil {
			return echo.NewHTTPError(http.StatusBadRequest, "want a JSON body with text")
		}
		messages.Append(*in.Text)
		return c.NoContent(http.StatusCreated)
	}, middleware.BodyLimit(strconv.Itoa(reference.MaxBodyBytes)))
	return e
}
