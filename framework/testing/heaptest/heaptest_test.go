package heaptest

import (
	"runtime"
	"testing"
)

// sink keeps what the test allocates reachable.
var sink [][]byte

func TestLiveSeesWhatIsHeld(t *testing.T) {
	// Not parallel: it measures the process's heap.
	const size = 64 << 20
	before := Live()
	sink = append(sink, make([]byte, size))
	held := Live()
	sink = nil
	after := Live()
	if grew := int64(held) - int64(before); grew < size {
		t.Errorf("holding %d MiB, the live heap grew by %d MiB", size>>20, grew>>20)
	}
	if kept := int64(after) - int64(before); kept >= size {
		t.Errorf("after letting %d MiB go, the live heap still holds %d MiB more", size>>20, kept>>20)
	}
}

// SamplePeak samples once before it looks at stop: what is held when it
// is called is in its peak, however soon the peak is asked for.
func TestSamplePeakSeesWhatIsHeld(t *testing.T) {
	// Not parallel: it measures the process's heap.
	const size = 64 << 20
	before := Live()
	b := make([]byte, size)
	for i := range b {
		b[i] = 1 // touched, so that its pages are in use
	}
	top := SamplePeak()()
	runtime.KeepAlive(b)
	if top < before+size {
		t.Errorf("peak %d MiB, want at least %d MiB: the %d MiB held went unseen", top>>20, (before+size)>>20, size>>20)
	}
}
