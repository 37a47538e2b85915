package messagetest

// A store is correct under concurrency when some serial order of the
// operations that ran at once explains what each of them returned and
// what the store holds afterwards. ConcurrentOperations runs small
// batches of operations from several goroutines at once, records every
// result, and searches the interleavings of the goroutines' programs for
// one that a model (a slice of texts) replays to the same results and the
// same final state. The search is depth-first, stops following an order as
// soon as one result differs, and remembers the (progress, state) pairs it
// has already explored, so a batch of a dozen operations is checked in
// microseconds.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/springport/greeter/domain/message"
)

// The shape of a batch: how many goroutines, how many operations each,
// and how many messages the collection holds when it starts.
const (
	replayWorkers = 4
	replayOps     = 4
	replaySize    = 8
)

type opKind int

const (
	opAppend opKind = iota
	opGet
	opReplace
	opRemove
)

// op is one operation and what it returned.
type op struct {
	kind  opKind
	index int64
	text  string // appended or replacing; for Get, the text returned
	len   int    // the IndexError's Len, or -1 when it succeeded
}

func (o op) String() string {
	var s string
	switch o.kind {
	case opAppend:
		return fmt.Sprintf("Append(%q)", o.text)
	case opGet:
		s = fmt.Sprintf("Get(%d)", o.index)
		if o.len < 0 {
			s += fmt.Sprintf(" = %q", o.text)
		}
	case opReplace:
		s = fmt.Sprintf("Replace(%d, %q)", o.index, o.text)
	case opRemove:
		s = fmt.Sprintf("Remove(%d)", o.index)
	}
	if o.len >= 0 {
		s += fmt.Sprintf(" = IndexError(Len %d)", o.len)
	}
	return s
}

// ConcurrentOperations runs rounds batches of Append, Get, Replace and
// Remove at random positions (some out of range) from several goroutines
// at once, spread over stores that share one collection (the same store
// may be given more than once), and fails unless some serial order of each
// batch explains every result and the collection it leaves.
func ConcurrentOperations(t *testing.T, rounds int, stores ...message.Store) {
	t.Helper()
	for round := range rounds {
		rng := rand.New(rand.NewPCG(uint64(round), 1))
		initial := all(t, stores[0])
		for i := len(initial); i < replaySize; i++ {
			mustAppend(t, stores[0], fmt.Sprintf("r%d.%d", round, i))
		}
		initial = all(t, stores[0])
		programs := make([][]op, replayWorkers)
		for w := range programs {
			for k := range replayOps {
				o := op{index: int64(rng.IntN(replaySize+2) - 1), len: -1}
				switch p := rng.IntN(100); {
				case p < 15:
					o.kind = opAppend
				case p < 30:
					o.kind = opGet
				case p < 65:
					o.kind = opReplace
				default:
					o.kind = opRemove
				}
				if o.kind == opAppend || o.kind == opReplace {
					o.text = fmt.Sprintf("r%d.w%d.%d", round, w, k)
				}
				programs[w] = append(programs[w], o)
			}
		}
		run(t, stores, programs)
		if t.Failed() {
			return
		}
		final := all(t, stores[0])
		if !explained(initial, programs, final) {
			var b strings.Builder
			fmt.Fprintf(&b, "round %d: no serial order explains the results\ninitial %q\n", round, initial)
			for w, p := range programs {
				fmt.Fprintf(&b, "goroutine %d: %v\n", w, p)
			}
			fmt.Fprintf(&b, "final   %q", final)
			t.Fatal(b.String())
		}
	}
}

// run runs each program in a goroutine of its own, all starting at once,
// and records the results in the programs.
func run(t *testing.T, stores []message.Store, programs [][]op) {
	t.Helper()
	ctx := t.Context()
	start := make(chan struct{})
	var wg sync.WaitGroup
	for w, program := range programs {
		s := stores[w%len(stores)]
		wg.Go(func() {
			<-start
			for k := range program {
				o := &program[k]
				var err error
				switch o.kind {
				case opAppend:
					err = s.Append(ctx, message.Message{Text: o.text})
				case opGet:
					var m message.Message
					m, err = s.Get(ctx, o.index)
					o.text = m.Text
				case opReplace:
					err = s.Replace(ctx, o.index, message.Message{Text: o.text})
				case opRemove:
					err = s.Remove(ctx, o.index)
				}
				var ie *message.IndexError
				switch {
				case errors.As(err, &ie) && o.kind != opAppend:
					o.len = ie.Len
				case err != nil:
					t.Errorf("goroutine %d: %v: %v", w, o, err)
					return
				}
			}
		})
	}
	close(start)
	wg.Wait()
}

// explained reports whether some interleaving of the programs, replayed
// on initial, gives every recorded result and ends with final.
func explained(initial []string, programs [][]op, final []string) bool {
	next := make([]int, len(programs))
	seen := map[string]bool{}
	inFinal := make(map[string]bool, len(final))
	for _, text := range final {
		inFinal[text] = true
	}
	var search func(state []string) bool
	search = func(state []string) bool {
		key := progress(next) + strings.Join(state, "\x00")
		if seen[key] {
			return false
		}
		seen[key] = true
		if !reachable(state, programs, next, inFinal) {
			return false
		}
		done := true
		for w, p := range programs {
			if next[w] == len(p) {
				continue
			}
			done = false
			after, ok := replay(state, p[next[w]])
			if !ok {
				continue
			}
			next[w]++
			found := search(after)
			next[w]--
			if found {
				return true
			}
		}
		return done && slices.Equal(state, final)
	}
	return search(initial)
}

// progress encodes next as a string, for the keys of explored nodes.
func progress(next []int) string {
	b := make([]byte, len(next))
	for i, n := range next {
		b[i] = byte(n)
	}
	return string(b)
}

// reachable is a quick necessary condition for state to lead to final
// with the operations left (programs from next on): every text of state
// that final lacks needs a Remove or Replace left to take it away, and
// every text of final that state lacks needs an Append or Replace left to
// bring it.
func reachable(state []string, programs [][]op, next []int, inFinal map[string]bool) bool {
	erasers := 0
	brought := map[string]bool{}
	for w, p := range programs {
		for _, o := range p[next[w]:] {
			switch o.kind {
			case opRemove:
				erasers++
			case opReplace:
				erasers++
				brought[o.text] = true
			case opAppend:
				brought[o.text] = true
			}
		}
	}
	inState := make(map[string]bool, len(state))
	for _, text := range state {
		inState[text] = true
		if !inFinal[text] {
			if erasers--; erasers < 0 {
				return false
			}
		}
	}
	for text := range inFinal {
		if !inState[text] && !brought[text] {
			return false
		}
	}
	return true
}

// replay applies o to state as a correct store would, and reports whether
// that gives the result o recorded. It does not change state.
func replay(state []string, o op) ([]string, bool) {
	if o.kind == opAppend {
		return append(slices.Clip(state), o.text), true
	}
	if o.index < 0 || o.index >= int64(len(state)) {
		return state, o.len == len(state)
	}
	if o.len >= 0 {
		return state, false
	}
	switch o.kind {
	case opGet:
		return state, state[o.index] == o.text
	case opReplace:
		after := slices.Clone(state)
		after[o.index] = o.text
		return after, true
	default: // opRemove
		return slices.Delete(slices.Clone(state), int(o.index), int(o.index)+1), true
	}
}
