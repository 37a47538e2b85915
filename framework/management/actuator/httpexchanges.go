package actuator

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// /actuator/httpexchanges shows the last requests the service answered,
// newest first, in the shape of Spring's HttpExchange: when, the request
// (method, URI, headers), the response (status, headers) and how long
// it took. They are kept only with
// management.httpexchanges.recording.enabled=true, in a ring of the
// last ExchangesCapacity, as Spring's InMemoryHttpExchangeRepository
// keeps them.
//
// What a request carries that unlocks something is never kept, so that
// exposing the endpoint gives nobody another's session or credentials:
// Authorization, Proxy-Authorization, Cookie and Set-Cookie, and any
// header whose name the settings sanitiser deems secret (X-Api-Key,
// X-Auth-Token). Each exchange's memory is bounded too: at most
// maxKeptHeaders headers of at most maxKeptValues values of at most
// maxKeptValue bytes, and the URI cut at maxKeptURI, so the ring's size
// does not depend on what clients send.

// ExchangesCapacity is how many exchanges the ring keeps: Spring's
// default.
const ExchangesCapacity = 100

const (
	maxKeptHeaders = 32
	maxKeptValues  = 4
	maxKeptValue   = 256
	maxKeptURI     = 1024
)

// secretHeaders are never kept, whatever their value.
var secretHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"}

// Exchanges records the recent exchanges: pass its Observe to the
// dispatchers as an observer.
type Exchanges struct {
	mu   sync.Mutex
	ring []exchange // at most ExchangesCapacity
	next int        // where the next one goes once the ring is full
}

// NewExchanges returns an empty record.
func NewExchanges() *Exchanges { return &Exchanges{} }

type exchange struct {
	Timestamp string           `json:"timestamp"`
	Request   exchangeRequest  `json:"request"`
	Response  exchangeResponse `json:"response"`
	TimeTaken string           `json:"timeTaken"`
}

type exchangeRequest struct {
	URI     string              `json:"uri"`
	Method  string              `json:"method"`
	Headers map[string][]string `json:"headers"`
}

type exchangeResponse struct {
	Status  int                 `json:"status"`
	Headers map[string][]string `json:"headers"`
}

// Observe records one answered request.
func (e *Exchanges) Observe(o dispatch.Observation) {
	r := o.Request
	if r == nil {
		return
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	ex := exchange{
		Timestamp: time.Now().Add(-o.Duration).UTC().Format(time.RFC3339Nano),
		Request:   exchangeRequest{URI: clip(scheme+"://"+r.Host+r.URL.RequestURI(), maxKeptURI), Method: r.Method, Headers: keptHeaders(r.Header)},
		Response:  exchangeResponse{Status: o.Status, Headers: keptHeaders(o.ResponseHeader())},
		TimeTaken: config.FormatJavaDuration(o.Duration),
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.ring) < ExchangesCapacity {
		e.ring = append(e.ring, ex)
		return
	}
	e.ring[e.next] = ex
	e.next = (e.next + 1) % ExchangesCapacity
}

// recent returns the exchanges, newest first.
func (e *Exchanges) recent() []exchange {
	e.mu.Lock()
	defer e.mu.Unlock()
	list := slices.Concat(e.ring[e.next:], e.ring[:e.next]) // oldest first
	slices.Reverse(list)
	return list
}

// keptHeaders copies the headers that may be kept, within the bounds.
func keptHeaders(h http.Header) map[string][]string {
	kept := map[string][]string{}
	for _, name := range slices.Sorted(maps.Keys(h)) {
		if len(kept) == maxKeptHeaders {
			break
		}
		if slices.ContainsFunc(secretHeaders, func(s string) bool { return strings.EqualFold(s, name) }) || config.Sensitive(name) {
			continue
		}
		values := slices.Clone(h[name][:min(len(h[name]), maxKeptValues)])
		for i, v := range values {
			values[i] = clip(v, maxKeptValue)
		}
		kept[clip(name, maxKeptValue)] = values
	}
	return kept
}

// clip cuts s to at most n bytes, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

type exchangesDescriptor struct {
	Exchanges []exchange `json:"exchanges"`
}

func handleExchanges(e *Exchanges) func(*dispatch.Request) (exchangesDescriptor, error) {
	return func(*dispatch.Request) (exchangesDescriptor, error) {
		return exchangesDescriptor{Exchanges: e.recent()}, nil
	}
}
