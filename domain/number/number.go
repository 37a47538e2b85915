// Package number holds the number component: an integer drawn at random when
// the component is created and fixed for its whole life. Which consumers share
// an instance is the component's lifecycle, decided by whoever creates it.
package number

import "math/rand/v2"

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
