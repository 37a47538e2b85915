package number

import "testing"

func TestValueIsDrawnOnce(t *testing.T) {
	draws := 0
	n := New(func() int32 { draws++; return -42 })
	for range 3 {
		if got := n.Value(); got != -42 {
			t.Fatalf("Value() = %d, want -42", got)
		}
	}
	if draws != 1 {
		t.Errorf("drew %d times, want once, at creation", draws)
	}
}

func TestDefaultDrawCoversNegatives(t *testing.T) {
	// Java's nextInt() covers the whole range; 64 non-negative draws in a
	// row would happen once in 2^64 runs.
	for range 64 {
		if New(nil).Value() < 0 {
			return
		}
	}
	t.Error("64 draws and none negative: the default draw is not the full 32-bit range")
}
