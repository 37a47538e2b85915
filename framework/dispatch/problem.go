package dispatch

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
)

// Error is a failure with the HTTP status it deserves. Detail is shown to
// the client; Err, when set, is only logged.
type Error struct {
	Status int
	Detail string
	Err    error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Detail + ": " + e.Err.Error()
	}
	return e.Detail
}

func (e *Error) Unwrap() error { return e.Err }

func badRequest(detail string) *Error {
	return &Error{Status: http.StatusBadRequest, Detail: detail}
}

// problem is an RFC 9457 problem document.
type problem struct {
	Type     string `json:"type"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Detail   string `json:"detail,omitempty"`
	Instance string `json:"instance"`
	// RequestID ties the answer to the server's log (an extension member).
	RequestID string `json:"requestId,omitempty"`
}

// writeProblem answers with a problem document, whatever the client's
// Accept says: an error is better reported in a type the client did not ask
// for than not at all (Spring does the same).
// It returns how many body bytes it wrote.
func writeProblem(w http.ResponseWriter, r *http.Request, status int, detail, requestID string) int {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // as Jackson: a path with & stays readable
	if err := enc.Encode(problem{
		Type:      "about:blank",
		Title:     http.StatusText(status),
		Status:    status,
		Detail:    detail,
		Instance:  r.URL.EscapedPath(),
		RequestID: requestID,
	}); err != nil { // cannot happen for these field types
		buf.Reset()
		buf.WriteString(`{"type":"about:blank","status":500}`)
	}
	body := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	n, _ := w.Write(body)
	return n
}
