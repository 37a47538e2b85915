// Package number holds the number component: an integer drawn at random when
// the component is created and fixed for its whole life. Which consumers share
// an instance is the component's lifecycle, decided by whoever creates it.
package number

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
)

// Number is one instance of the number component.
type Number struct {
	value int32
}

// New creates a Number whose value is drawn from draw; a nil draw draws from
// the whole 32-bit range, negative values included, as Java's
// Random.nextInt() does in the original.
func New(draw func() int32) *Number {
	if draw == nil {
		draw = func() int32 { return int32(rand.Uint32()) }
	}
	return &Number{value: draw()}
}

// Value returns the number drawn when n was created.
func (n *Number) Value() int32 { return n.value }

// format is the first byte of a saved Number. Saved state outlives the
// process that wrote it, so a later version that changes the layout can
// tell the old one apart, and this one refuses a layout it does not know.
const format = 1

// MarshalBinary saves n, so that a session kept outside the process (in
// Redis) gives its client the same number on every instance and after a
// restart: a format byte, then the value in 4 bytes, big-endian.
func (n *Number) MarshalBinary() ([]byte, error) {
	return binary.BigEndian.AppendUint32([]byte{format}, uint32(n.value)), nil
}

// UnmarshalBinary restores a Number that MarshalBinary saved.
func (n *Number) UnmarshalBinary(data []byte) error {
	if len(data) != 5 || data[0] != format {
		return fmt.Errorf("number: saved state is %d bytes %x; want format %d and a 4-byte value", len(data), data, format)
	}
	n.value = int32(binary.BigEndian.Uint32(data[1:]))
	return nil
}
