package main

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/springport/greeter/bench/reference"
)

// The media types an endpoint can answer with, in the order of preference
// used when the client accepts several equally: JSON first, as the service
// (and Spring) prefer it. The types are written with the charset the
// service gives its XML and text.
var (
	objectTypes = []string{"application/json", "application/xml", "text/xml"}
	textTypes   = []string{"text/plain"}
)

// contentType is the Content-Type written for each media type.
var contentType = map[string]string{
	"application/json": "application/json",
	"application/xml":  "application/xml;charset=UTF-8",
	"text/xml":         "text/xml;charset=UTF-8",
	"text/plain":       "text/plain;charset=UTF-8",
}

// negotiate picks from produces the media type that the Accept header
// asks for: the range with the highest q (ties to the more specific, then
// to the earlier) that matches one of produces, and of those it matches,
// the earliest. No Accept header accepts anything. It reports false when
// nothing produced is acceptable (a 406).
//
// go-chi/render is chi's own answer to this, but it reads only the first
// type listed and ignores q, so that "text/html, application/json" would
// get plain text; this is the few lines it takes to do what HTTP says.
func negotiate(accept string, produces []string) (string, bool) {
	if strings.TrimSpace(accept) == "" {
		return produces[0], true
	}
	best, bestQ, bestSpecific := "", 0.0, -1
	for accept != "" {
		var item string
		item, accept, _ = strings.Cut(accept, ",")
		mediaRange, params, _ := strings.Cut(item, ";")
		mediaRange = strings.ToLower(strings.TrimSpace(mediaRange))
		q := quality(params)
		if q <= 0 {
			continue
		}
		specific := specificity(mediaRange)
		if q < bestQ || (q == bestQ && specific <= bestSpecific) {
			continue
		}
		for _, p := range produces {
			if matches(mediaRange, p) {
				best, bestQ, bestSpecific = p, q, specific
				break
			}
		}
	}
	return best, best != ""
}

// quality reads q from a media range's parameters ("q=0.5;level=1"); a
// range without one has q=1, and one that cannot be read counts as 0.
func quality(params string) float64 {
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		name, value, _ := strings.Cut(p, "=")
		if strings.EqualFold(strings.TrimSpace(name), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
			if err != nil {
				return 0
			}
			return q
		}
	}
	return 1
}

// specificity ranks */* below type/* below type/subtype.
func specificity(mediaRange string) int {
	switch {
	case mediaRange == "*/*":
		return 0
	case strings.HasSuffix(mediaRange, "/*"):
		return 1
	}
	return 2
}

// matches reports whether a media range (*/*, type/* or type/subtype)
// includes the media type t.
func matches(mediaRange, t string) bool {
	if mediaRange == "*/*" || mediaRange == t {
		return true
	}
	prefix, ok := strings.CutSuffix(mediaRange, "*")
	return ok && strings.HasSuffix(prefix, "/") && strings.HasPrefix(t, prefix)
}

// writeNegotiated answers 200 with v as JSON or XML, as the Accept header
// asks, with Vary: Accept, since the answer depends on it (a cache must
// not give a JSON client the XML it stored for another).
func writeNegotiated(w http.ResponseWriter, r *http.Request, v any) {
	w.Header().Set("Vary", "Accept")
	t, ok := negotiate(r.Header.Get("Accept"), objectTypes)
	if !ok {
		notAcceptable(w, r, objectTypes)
		return
	}
	var body []byte
	var err error
	if t == "application/json" {
		body, err = json.Marshal(v)
	} else {
		body, err = xml.Marshal(v)
	}
	if err != nil {
		writeProblem(w, r, http.StatusInternalServerError, "", err)
		return
	}
	w.Header().Set("Content-Type", contentType[t])
	w.Write(body)
}

// The JSON of a number is the bare integer, as the service writes it.
func (n number) MarshalJSON() ([]byte, error) { return strconv.AppendInt(nil, int64(n.Value), 10), nil }

// notAcceptable answers 406, naming what the endpoint can answer with.
func notAcceptable(w http.ResponseWriter, r *http.Request, produces []string) {
	writeProblem(w, r, http.StatusNotAcceptable,
		"Acceptable representations: ["+strings.Join(produces, ", ")+"].", nil)
}

// bodyTypes are the media types a posted message may come in, as the
// service reads them; the 415 of any other lists them in Accept.
var bodyTypes = "application/json, application/xml, text/xml"

// readText reads a posted message's text from a JSON or XML body, as its
// Content-Type says, answering 415 for another type, 413 for a body over
// the service's 1 MiB, and 400 for a body that is not a message or has no
// text.
func readText(w http.ResponseWriter, r *http.Request) (string, bool) {
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var in struct {
		Text *string `json:"text" xml:"text"`
	}
	body := http.MaxBytesReader(w, r.Body, reference.MaxBodyBytes)
	switch {
	case err != nil:
		w.Header().Set("Accept", bodyTypes)
		writeProblem(w, r, http.StatusUnsupportedMediaType, "Content-Type '"+r.Header.Get("Content-Type")+"' is not supported.", nil)
		return "", false
	case mediaType == "application/json":
		err = json.NewDecoder(body).Decode(&in)
	case mediaType == "application/xml" || mediaType == "text/xml":
		err = xml.NewDecoder(body).Decode(&in)
	default:
		w.Header().Set("Accept", bodyTypes)
		writeProblem(w, r, http.StatusUnsupportedMediaType, "Content-Type '"+mediaType+"' is not supported.", nil)
		return "", false
	}
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeProblem(w, r, http.StatusRequestEntityTooLarge, "The body is over "+strconv.FormatInt(tooLarge.Limit, 10)+" bytes.", err)
		return "", false
	case err != nil:
		writeProblem(w, r, http.StatusBadRequest, "Malformed "+mediaType+" body: "+err.Error()+".", err)
		return "", false
	case in.Text == nil:
		writeProblem(w, r, http.StatusBadRequest, "Invalid request body: field 'text' is required.", nil)
		return "", false
	}
	return *in.Text, true
}
