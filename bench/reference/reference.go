// Package reference is the floor the service's benchmarks compare against:
// the same endpoints hand-written on a plain http.ServeMux with
// encoding/json, without negotiation, conversion tables, problem documents,
// request IDs or metrics. It exists only for benchmarks.
package reference

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Greeting is the text of /api/hello, as the service's default.
const Greeting = "Hello World!"

// MaxBodyBytes caps a request body, as the service's default
// server.max-request-size does.
const MaxBodyBytes = 1 << 20

// Handler returns the reference endpoints with their own empty message list
// and their own number.
func Handler() http.Handler {
	var (
		mu       sync.Mutex
		messages []string
	)
	valA := rand.Int32()

	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/hello", func(w http.ResponseWriter, r *http.Request) {
		WriteJSON(w, http.StatusOK, Message{Text: Greeting})
	})
	mux.HandleFunc("GET /api/hi", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain;charset=UTF-8")
		w.Write([]byte("Hi"))
	})
	mux.HandleFunc("GET /api/hello/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, err := strconv.ParseInt(r.PathValue("id"), 10, 32)
		if err != nil {
			http.Error(w, "id is not a 32-bit integer", http.StatusBadRequest)
			return
		}
		WriteJSON(w, http.StatusOK, Message{Text: Greeting + " " + strconv.FormatInt(id, 10)})
	})
	mux.HandleFunc("GET /api/number/val-a", func(w http.ResponseWriter, r *http.Request) {
		WriteJSON(w, http.StatusOK, valA)
	})
	mux.HandleFunc("POST /api/messages", func(w http.ResponseWriter, r *http.Request) {
		text, ok := ReadText(w, r)
		if !ok {
			return
		}
		mu.Lock()
		messages = append(messages, text)
		mu.Unlock()
		w.WriteHeader(http.StatusCreated)
	})
	return mux
}

// ReadText reads a message body's text, answering 400 when there is none.
func ReadText(w http.ResponseWriter, r *http.Request) (string, bool) {
	var m struct {
		Text *string `json:"text"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBodyBytes)).Decode(&m); err != nil || m.Text == nil {
		http.Error(w, "want a JSON body with text", http.StatusBadRequest)
		return "", false
	}
	return *m.Text, true
}

// Message is the JSON body of the greetings and of a posted message.
type Message struct {
	Text string `json:"text"`
}

// WriteJSON answers status with v as JSON.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// Server returns an http.Server for h with the service's default limits
// (server.read-header-timeout and the others), so that the two differ only
// in what their handlers do.
func Server(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
}
