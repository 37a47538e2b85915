package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/dispatch"
	"github.com/springport/greeter/messagestore/inmem"
)

// TestListPages checks GET /api/messages with and without paging: the
// window, X-Total-Count, the Link header, and the sizes that are cut or
// refused.
func TestListPages(t *testing.T) {
	store := &inmem.Messages{}
	var want []string
	for i := range 7 {
		want = append(want, fmt.Sprint("m", i))
		if err := store.Append(t.Context(), message.Message{Text: want[i]}); err != nil {
			t.Fatal(err)
		}
	}
	d, err := dispatch.New(dispatch.Options{Classify: Classify}, Routes("hi", store, Paging{DefaultSize: 3, MaxSize: 4}, nil, nil)...)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query  string
		status int
		texts  []string
		link   string
	}{
		{"", 200, want, ""},
		{"?page=0", 200, want[0:3], `</api/messages?page=0&size=3>; rel="first", </api/messages?page=1&size=3>; rel="next", </api/messages?page=2&size=3>; rel="last"`},
		{"?page=1&size=3", 200, want[3:6], `</api/messages?page=0&size=3>; rel="first", </api/messages?page=0&size=3>; rel="prev", </api/messages?page=2&size=3>; rel="next", </api/messages?page=2&size=3>; rel="last"`},
		{"?page=2&size=3", 200, want[6:], `</api/messages?page=0&size=3>; rel="first", </api/messages?page=1&size=3>; rel="prev", </api/messages?page=2&size=3>; rel="last"`},
		{"?page=9&size=3", 200, []string{}, `</api/messages?page=0&size=3>; rel="first", </api/messages?page=2&size=3>; rel="prev", </api/messages?page=2&size=3>; rel="last"`},
		{"?size=2", 200, want[0:2], `</api/messages?page=0&size=2>; rel="first", </api/messages?page=1&size=2>; rel="next", </api/messages?page=3&size=2>; rel="last"`},
		{"?size=100", 200, want[0:4], `</api/messages?page=0&size=4>; rel="first", </api/messages?page=1&size=4>; rel="next", </api/messages?page=1&size=4>; rel="last"`},
		{"?page=2147483647&size=4", 200, []string{}, `</api/messages?page=0&size=4>; rel="first", </api/messages?page=1&size=4>; rel="prev", </api/messages?page=1&size=4>; rel="last"`},
		{"?page=-1", 400, nil, ""},
		{"?size=0", 400, nil, ""},
		{"?page=x", 400, nil, ""},
		{"?page=1&page=2", 400, nil, ""},
	}
	for _, tt := range tests {
		w := httptest.NewRecorder()
		d.ServeHTTP(w, httptest.NewRequest("GET", "/api/messages"+tt.query, nil))
		if w.Code != tt.status {
			t.Errorf("%s: status %d, want %d (%s)", tt.query, w.Code, tt.status, w.Body)
			continue
		}
		if tt.status != 200 {
			continue
		}
		var got []message.Message
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Errorf("%s: %v in %s", tt.query, err, w.Body)
		}
		texts := []string{}
		for _, m := range got {
			texts = append(texts, m.Text)
		}
		if !slices.Equal(texts, tt.texts) {
			t.Errorf("%s: %q, want %q", tt.query, texts, tt.texts)
		}
		if got := w.Header().Get(TotalCountHeader); got != "7" {
			t.Errorf("%s: %s %q, want 7", tt.query, TotalCountHeader, got)
		}
		if got := w.Header().Get("Link"); got != tt.link {
			t.Errorf("%s: Link\ngot  %s\nwant %s", tt.query, got, tt.link)
		}
	}
}

// TestListPagesOfNothing checks the links of an empty collection: one
// page, 0, empty.
func TestListPagesOfNothing(t *testing.T) {
	d, err := dispatch.New(dispatch.Options{}, Routes("hi", &inmem.Messages{}, Paging{}, nil, nil)...)
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	d.ServeHTTP(w, httptest.NewRequest("GET", "/api/messages?page=0", nil))
	if w.Code != http.StatusOK || w.Body.String() != "[]" || w.Header().Get(TotalCountHeader) != "0" ||
		w.Header().Get("Link") != `</api/messages?page=0&size=20>; rel="first", </api/messages?page=0&size=20>; rel="last"` {
		t.Errorf("got %d %s, %s, Link %s", w.Code, w.Body, w.Header().Get(TotalCountHeader), w.Header().Get("Link"))
	}
}
