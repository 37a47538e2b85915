package metrics

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/springport/greeter/domain/message"
)

func TestMessages(t *testing.T) {
	usage := message.Usage{Count: 3, Bytes: 1234}
	var err error
	m := New(Options{})
	m.Messages(func(context.Context) (message.Usage, error) { return usage, err }, message.Limits{MaxCount: 1000, MaxBytes: 1 << 20})

	text := scrape(m)
	for _, want := range []string{
		"messages_stored 3\n", "messages_stored_max 1000\n",
		"messages_text_bytes 1234\n", "messages_text_bytes_max 1.048576e+06\n",
		"# TYPE messages_stored gauge",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q", want)
		}
	}

	err = errors.New("the store is down")
	text = scrape(m)
	if strings.Contains(text, "messages_stored ") || strings.Contains(text, "messages_text_bytes ") {
		t.Error("a store that does not answer still shows a usage")
	}
	if !strings.Contains(text, "messages_stored_max 1000\n") {
		t.Error("a store that does not answer hides its limits")
	}
}

func scrape(m *HTTP) string {
	w := httptest.NewRecorder()
	m.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	return w.Body.String()
}
