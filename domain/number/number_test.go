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

func TestSavedNumberRestores(t *testing.T) {
	for _, v := range []int32{0, 1, -1, 42, -459033897, 1<<31 - 1, -1 << 31} {
		data, err := New(func() int32 { return v }).MarshalBinary()
		if err != nil {
			t.Fatalf("MarshalBinary of %d: %v", v, err)
		}
		var got Number
		if err := got.UnmarshalBinary(data); err != nil {
			t.Fatalf("UnmarshalBinary(%x) of %d: %v", data, v, err)
		}
		if got.Value() != v {
			t.Errorf("%d saved as %x restores as %d", v, data, got.Value())
		}
	}
}

func TestUnmarshalRefusesBadState(t *testing.T) {
	for _, data := range [][]byte{
		nil,
		{},
		{1, 0, 0, 0},       // too short
		{1, 0, 0, 0, 0, 0}, // too long
		{2, 0, 0, 0, 42},   // a format this version does not know
		{0, 0, 0, 0, 42},
	} {
		n := New(func() int32 { return 7 })
		if err := n.UnmarshalBinary(data); err == nil {
			t.Errorf("UnmarshalBinary(%x) = nil; want an error", data)
		}
		if n.Value() != 7 {
			t.Errorf("a refused UnmarshalBinary(%x) changed the value to %d", data, n.Value())
		}
	}
}
