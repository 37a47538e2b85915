// Command chi serves the measured endpoints on a chi router, for bench/run.
package main

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/springport/greeter/bench/peers/internal/peer"
	"github.com/springport/greeter/bench/reference"
)

func main() {
	peer.Main(peer.HTTP(handler))
}

// handler is the measured endpoints on a chi router, with no middleware:
// chi's handlers are net/http's, so they read and write as the reference
// does.
func handler(messages *peer.Messages, valA int32) http.Handler {
	r := chi.NewRouter()
	r.Get("/api/hello", func(w http.ResponseWriter, r *http.Request) {
		reference.WriteJSON(w, http.StatusOK, reference.Message{Text: reference.Greeting})
	})
	r.Get("/api/hi", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain;charset=UTF-8")
		w.Write([]byte("Hi"))
	})
	r.Get("/api/hello/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 32)
		if err != nil {
			http.Error(w, "id is not a 32-bit integer", http.StatusBadRequest)
			return
		}
		reference.WriteJSON(w, http.StatusOK, reference.Message{Text: reference.Greeting + " " + strconv.FormatInt(id, 10)})
	})
	r.Get("/api/number/val-a", func(w http.ResponseWriter, r *http.Request) {
		reference.WriteJSON(w, http.StatusOK, valA)
	})
	r.Post("/api/messages", func(w http.ResponseWriter, r *http.Request) {
		text, ok := reference.ReadText(w, r)
		if !ok {
			return
		}
		messages.Append(text)
		w.WriteHeader(http.StatusCreated)
	})
	return r
}
