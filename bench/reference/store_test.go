package reference

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/springport/greeter/messagestore/inmem"
)

func TestStoreEndpoints(t *testing.T) {
	h := StoreHandler(&inmem.Messages{})
	tests := []struct {
		method, target, body string
		status               int
		want                 string
	}{
		{"GET", "/api/messages/0", "", 500, ""},
		{"POST", "/api/messages", `{"text":"hello world 20 bytes"}`, 201, ""},
		{"POST", "/api/messages", `{}`, 400, ""},
		{"GET", "/api/messages/0", "", 200, `{"text":"hello world 20 bytes"}`},
		{"GET", "/api/messages/x", "", 400, ""},
	}
	for _, tt := range tests {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body)))
		if w.Code != tt.status || (tt.want != "" && w.Body.String() != tt.want) {
			t.Errorf("%s %s: %d %s, want %d %s", tt.method, tt.target, w.Code, w.Body, tt.status, tt.want)
		}
	}
}
