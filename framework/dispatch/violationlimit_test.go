package dispatch

import (
	"encoding/json"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The shapes of body that made a 400 grow with the body: many items
// breaking a constraint, under a long map key, or nested deep.
type limitItem struct {
	Name string `json:"name" validate:"required"`
}

type limitList struct {
	Items []limitItem `json:"items"`
}

// limitNode walks its next before its own name, so that its violations
// are found deepest first, with the longest pointers.
type limitNode struct {
	Next *limitNode `json:"next"`
	Name string     `json:"name" validate:"required"`
}

func keyedBody(keyLen, items int) string {
	return `{"` + strings.Repeat("k", keyLen) + `":[` + strings.Repeat("{},", items-1) + `{}]}`
}

func listBody(size int) string {
	items := (size - len(`{"items":[]}`)) / 3
	return `{"items":[` + strings.Repeat("{},", items-1) + `{}]}`
}

func deepBody(depth int) string {
	return strings.Repeat(`{"next":`, depth) + "{}" + strings.Repeat("}", depth)
}

// TestViolationsBounded: a body that breaks a constraint thousands of
// times is answered with the first MaxViolations, said to be cut, each
// pointer short, in an answer whose size does not follow the body's.
func TestViolationsBounded(t *testing.T) {
	t.Parallel()
	if !strings.Contains(InvalidContentCut, " "+strconv.Itoa(MaxViolations)+" ") {
		t.Fatalf("InvalidContentCut %q does not name MaxViolations %d", InvalidContentCut, MaxViolations)
	}
	tests := []struct {
		name    string
		body    string
		serve   func(t *testing.T, body string) (int, problemDoc, int)
		pointer int // the longest pointer allowed
	}{
		{"long key", keyedBody(50_000, 4_000), serveAs[map[string][]limitItem], 128},
		{"many items", listBody(1<<20 - 64), serveAs[limitList], 32},
		{"deep", deepBody(4_000), serveAs[limitNode], maxPointer + len("…")},
	}
	for _, tt := range tests {
		code, p, size := tt.serve(t, tt.body)
		if code != 400 || p.Detail != InvalidContentCut || len(p.Errors) != MaxViolations {
			t.Errorf("%s: %d %q with %d violations; want 400 %q with %d", tt.name, code, p.Detail, len(p.Errors), InvalidContentCut, MaxViolations)
		}
		for _, v := range p.Errors {
			if len(v.Pointer) > tt.pointer {
				t.Errorf("%s: pointer of %d bytes, more than %d: %.80s…", tt.name, len(v.Pointer), tt.pointer, v.Pointer)
				break
			}
		}
		if limit := MaxViolations * (tt.pointer + 128); size > limit {
			t.Errorf("%s: a %d-byte answer to a %d-byte body; want at most %d", tt.name, size, len(tt.body), limit)
		}
	}
	// At the limit exactly, every violation is listed, and the detail is
	// the usual one.
	code, p, _ := serveAs[limitList](t, `{"items":[`+strings.Repeat("{},", MaxViolations-1)+`{}]}`)
	if code != 400 || p.Detail != InvalidContent || len(p.Errors) != MaxViolations {
		t.Errorf("at the limit: %d %q with %d violations", code, p.Detail, len(p.Errors))
	}
}

// serveAs serves body to a route that validates a B, returning the
// status, the problem document and its size.
func serveAs[B any](t *testing.T, body string) (int, problemDoc, int) {
	t.Helper()
	d := newDispatcher(t, Options{}, Route{Method: "POST", Pattern: "/b", Status: 204,
		Handler: Accepts(func(*Request, B) error { return nil })})
	w := serve(d, "POST", "/b", strings.NewReader(body), "Content-Type: application/json")
	if w.Code == 204 {
		return 204, problemDoc{}, 0
	}
	return w.Code, readProblem(t, "body", w.Body.Bytes()), w.Body.Len()
}

// TestViolationWalkBounded: checking a body stops at the limit, so that
// what it allocates is the same for a body ten times larger.
func TestViolationWalkBounded(t *testing.T) {
	// Not parallel: it reads the allocations of the whole process.
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	tests := []struct {
		name       string
		small, big string
		walkOf     func(t *testing.T, body string) func() []Violation
	}{
		{"long key", keyedBody(50_000, 400), keyedBody(50_000, 4_000), walkOf[map[string][]limitItem]},
		{"many items", listBody(100_000), listBody(1_000_000), walkOf[limitList]},
	}
	for _, tt := range tests {
		small, big := allocated(tt.walkOf(t, tt.small)), allocated(tt.walkOf(t, tt.big))
		t.Logf("%s: %d bytes for the small body, %d for the big one", tt.name, small, big)
		if big > small+small/2 {
			t.Errorf("%s: checking a body ten times larger allocates %d bytes, not about %d", tt.name, big, small)
		}
	}
}

// walkOf decodes body into a B and returns the check of it.
func walkOf[B any](t *testing.T, body string) func() []Violation {
	t.Helper()
	p, errs := bodyPlan(reflect.TypeFor[B]())
	if errs != nil {
		t.Fatal(errs)
	}
	v := new(B)
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatal(err)
	}
	return func() []Violation {
		vs := p.check(reflect.ValueOf(v).Elem())
		if len(vs) != MaxViolations+1 {
			t.Fatalf("the check found %d violations; want it to stop at %d", len(vs), MaxViolations+1)
		}
		return vs
	}
}

// allocated is the bytes that check allocates, the least of a few runs,
// once its walker is warm.
func allocated(check func() []Violation) uint64 {
	check()
	least := ^uint64(0)
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		check()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}
