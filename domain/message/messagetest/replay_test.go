package messagetest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// serial runs programs one operation at a time, taking the goroutines in
// the order that pick gives, and records the results a correct store
// gives; it returns the final state.
func serial(initial []string, programs [][]op, pick func(next []int) int) []string {
	state := slices.Clone(initial)
	next := make([]int, len(programs))
	for range len(programs) * len(programs[0]) {
		w := pick(next)
		o := &programs[w][next[w]]
		next[w]++
		switch {
		case o.kind == opAppend:
			state = append(state, o.text)
		case o.index < 0 || o.index >= int64(len(state)):
			o.len = len(state)
		case o.kind == opGet:
			o.text = state[o.index]
		case o.kind == opReplace:
			state[o.index] = o.text
		default:
			state = slices.Delete(state, int(o.index), int(o.index)+1)
		}
	}
	return state
}

func randomPrograms(rng *rand.Rand) [][]op {
	programs := make([][]op, replayWorkers)
	for w := range programs {
		for k := range replayOps {
			o := op{kind: opKind(rng.IntN(4)), index: int64(rng.IntN(replaySize+2) - 1), len: -1}
			if o.kind != opGet {
				o.text = fmt.Sprintf("w%d.%d", w, k)
			}
			programs[w] = append(programs[w], o)
		}
	}
	return programs
}

func initialState() []string {
	var initial []string
	for i := range replaySize {
		initial = append(initial, fmt.Sprint("i", i))
	}
	return initial
}

func TestExplainedAcceptsSerialHistories(t *testing.T) {
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 2))
		programs := randomPrograms(rng)
		final := serial(initialState(), programs, func(next []int) int {
			for {
				if w := rng.IntN(len(next)); next[w] < replayOps {
					return w
				}
			}
		})
		if !explained(initialState(), programs, final) {
			t.Fatalf("seed %d: a serial history was not explained:\n%v\nfinal %q", seed, programs, final)
		}
	}
}

func TestExplainedRejectsAnomalies(t *testing.T) {
	initial := []string{"a", "b", "c", "d"}
	tests := []struct {
		name     string
		programs [][]op
		final    []string
	}{
		{
			// Remove(0) renumbered b to 0 while Replace(1) looked for
			// position 1, found nothing there and reported success.
			name: "replace lost to a concurrent remove",
			programs: [][]op{
				{{kind: opRemove, index: 0, len: -1}},
				{{kind: opReplace, index: 1, text: "B", len: -1}},
			},
			final: []string{"b", "c", "d"},
		},
		{
			name: "two removes of one message",
			programs: [][]op{
				{{kind: opRemove, index: 1, len: -1}},
				{{kind: opRemove, index: 1, len: -1}},
			},
			final: []string{"a", "c", "d"},
		},
		{
			name: "an IndexError with a length the collection never had",
			programs: [][]op{
				{{kind: opRemove, index: 0, len: -1}},
				{{kind: opGet, index: 9, len: 2}},
			},
			final: []string{"b", "c", "d"},
		},
		{
			name: "a read of a state no order produces",
			programs: [][]op{
				{{kind: opReplace, index: 0, text: "A", len: -1}, {kind: opReplace, index: 1, text: "B", len: -1}},
				{{kind: opGet, index: 1, text: "B", len: -1}, {kind: opGet, index: 0, text: "a", len: -1}},
			},
			final: []string{"A", "B", "c", "d"},
		},
		{
			name: "an append stored twice",
			programs: [][]op{
				{{kind: opAppend, text: "e", len: -1}},
			},
			final: []string{"a", "b", "c", "d", "e", "e"},
		},
	}
	for _, tt := range tests {
		if explained(initial, tt.programs, tt.final) {
			t.Errorf("%s: explained, want rejected:\n%v\nfinal %q", tt.name, tt.programs, tt.final)
		}
	}
}
