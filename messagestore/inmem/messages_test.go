package inmem_test

import (
	"testing"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/domain/message/messagetest"
	"github.com/springport/greeter/messagestore/inmem"
)

func TestMessagesContract(t *testing.T) {
	messagetest.Run(t, func(*testing.T) message.Store { return new(inmem.Messages) })
	messagetest.RunLimits(t, func(_ *testing.T, l message.Limits) message.Store { return &inmem.Messages{Limits: l} })
}

func TestMessagesLen(t *testing.T) {
	ctx := t.Context()
	var s inmem.Messages
	for _, text := range []string{"a", "b", "c"} {
		if err := s.Append(ctx, message.Message{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Remove(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2 {
		t.Errorf("Len = %d after three appends and a removal, want 2", s.Len())
	}
}
