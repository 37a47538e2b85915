// Command fiber serves the measured endpoints on fiber (fasthttp, not
// net/http), for bench/run.
package main

import (
	"context"
	"net"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/springport/greeter/bench/peers/internal/peer"
	"github.com/springport/greeter/bench/reference"
)

func main() {
	peer.Main(func(m *peer.Messages, valA int32) reference.Runner {
		return server{app(m, valA)}
	})
}

// app is the measured endpoints on a fiber app, with no middleware and
// fiber's own equivalents of the reference's server limits: fasthttp has
// one read timeout for the header and body together (net/http's
// ReadTimeout; it has no separate one for the header), and its read buffer
// bounds the header as net/http's MaxHeaderBytes does.
func app(messages *peer.Messages, valA int32) *fiber.App {
	limits := reference.Server(nil)
	a := fiber.New(fiber.Config{
		DisableStartupMessage: true,
		ReadTimeout:           limits.ReadTimeout,
		WriteTimeout:          limits.WriteTimeout,
		IdleTimeout:           limits.IdleTimeout,
		ReadBufferSize:        limits.MaxHeaderBytes,
		BodyLimit:             reference.MaxBodyBytes,
	})
	a.Get("/api/hello", func(c *fiber.Ctx) error {
		return c.JSON(reference.Message{Text: reference.Greeting})
	})
	a.Get("/api/hi", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, "text/plain;charset=UTF-8")
		return c.SendString("Hi")
	})
	a.Get("/api/hello/:id", func(c *fiber.Ctx) error {
		id, err := strconv.ParseInt(c.Params("id"), 10, 32)
		if err != nil {
			return fiber.NewError(fiber.StatusBadRequest, "id is not a 32-bit integer")
		}
		return c.JSON(reference.Message{Text: reference.Greeting + " " + strconv.FormatInt(id, 10)})
	})
	a.Get("/api/number/val-a", func(c *fiber.Ctx) error {
		return c.JSON(valA)
	})
	a.Post("/api/messages", func(c *fiber.Ctx) error {
		var in struct {
			Text *string `json:"text"`
		}
		if err := c.BodyParser(&in); err != nil || in.Text == nil {
			return fiber.NewError(fiber.StatusBadRequest, "want a JSON body with text")
		}
		messages.Append(*in.Text)
		c.Status(fiber.StatusCreated) // SendStatus would add "Created" as a body
		return nil
	})
	return a
}

// server runs a fiber app as reference.Serve runs an http.Server.
type server struct{ *fiber.App }

func (s server) Serve(ln net.Listener) error { return s.Listener(ln) }

func (s server) Shutdown(ctx context.Context) error { return s.ShutdownWithContext(ctx) }
