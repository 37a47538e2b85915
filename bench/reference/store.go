package reference

import (
	"errors"
	"net/http"
	"strconv"

	domain "github.com/springport/greeter/domain/message"
)

// StoreHandler returns the message endpoints that bench/run measures
// against a shared store, hand-written over store: the floor for the
// service with the same store, since both then do the same work in the
// store (the same SQL through the same pool) and differ only in what
// surrounds it.
func StoreHandler(store domain.Store) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/messages", func(w http.ResponseWriter, r *http.Request) {
		text, ok := ReadText(w, r)
		if !ok {
			return
		}
		if err := store.Append(r.Context(), domain.Message{Text: text}); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusCreated)
	})
	mux.HandleFunc("GET /api/messages/{index}", func(w http.ResponseWriter, r *http.Request) {
		index, err := strconv.ParseInt(r.PathValue("index"), 10, 32)
		if err != nil {
			http.Error(w, "index is not a 32-bit integer", http.StatusBadRequest)
			return
		}
		m, err := store.Get(r.Context(), index)
		var outOfRange *domain.IndexError
		switch {
		case errors.As(err, &outOfRange):
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		case err != nil:
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		WriteJSON(w, http.StatusOK, Message{Text: m.Text})
	})
	return mux
}
