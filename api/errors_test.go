package api

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/outage"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		wantStatus int // 0: not classified
		wantDetail string
	}{
		{"index out of range", fmt.Errorf("get: %w", &message.IndexError{Index: 5, Len: 2}), 500, "No message at index 5; the collection holds 2."},
		{"a store with no room for another message", fmt.Errorf("append: %w", &message.LimitError{Limit: message.MaxCount, Max: 3, Usage: message.Usage{Count: 3, Bytes: 7}, Bytes: 2}),
			507, "Nothing was stored: the collection holds 3 messages, the most that app.messages.max-count (3) allows. Remove some to make room."},
		{"a store with no room for more text", fmt.Errorf("replace: %w", &message.LimitError{Limit: message.MaxBytes, Max: 10, Usage: message.Usage{Count: 2, Bytes: 8}, Bytes: 5}),
			507, "Nothing was stored: the messages' texts take 8 bytes, and 5 more would pass app.messages.max-total-size (10 bytes). Remove or shorten some to make room."},
		// The framework answers an outage (see framework/boot).
		{"a store that is down", fmt.Errorf("append: %w", &outage.Error{Dependency: "PostgreSQL", Err: errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")}), 0, ""},
		{"anything else", errors.New("boom"), 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Classify(tt.err)
			if tt.wantStatus == 0 {
				if got != nil {
					t.Fatalf("classified as %d, want unclassified", got.Status)
				}
				return
			}
			if got == nil || got.Status != tt.wantStatus || got.Detail != tt.wantDetail {
				t.Fatalf("got %+v, want %d %q", got, tt.wantStatus, tt.wantDetail)
			}
			if !errors.Is(got, tt.err) {
				t.Error("the cause is not kept for the log")
			}
			if strings.Contains(got.Detail, "127.0.0.1") {
				t.Error("the detail shows the cause's address to the client")
			}
		})
	}
}
