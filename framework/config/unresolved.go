package config

import (
	"fmt"
	"strings"
)

// Unresolved is a placeholder that nothing resolves: no source sets its
// name, nor does the JVM's stand-in (systemProperty), and it has no
// default.
type Unresolved struct {
	// Name is the name the placeholder looks up, ${Name}; Mask when it was
	// built from a secret.
	Name string
	// Via are the settings whose values led to it, outermost first:
	// x=${a}, a=${b}, b=${missing} reaches ${missing} via a and b. Empty
	// when the value itself holds the placeholder.
	Via []string
	// Elided counts the names left out of Via, at its middle, when the
	// chain is longer than maxVia.
	Elided int
}

// maxVia bounds the names an Unresolved keeps of its chain.
const maxVia = 16

// String is `"missing"`, or `"missing" (via a → b)`.
func (u Unresolved) String() string {
	s := fmt.Sprintf("%q", u.Name)
	if len(u.Via) == 0 {
		return s
	}
	via := u.Via
	if u.Elided > 0 {
		via = append(append(append([]string{}, via[:maxVia/2]...), fmt.Sprintf("… (%d more)", u.Elided)), via[maxVia/2:]...)
	}
	return s + " (via " + strings.Join(via, " → ") + ")"
}

// under returns u as reached through name's value: name leads its chain.
func (u Unresolved) under(name string) Unresolved {
	via := make([]string, 0, len(u.Via)+1)
	via = append(append(via, name), u.Via...)
	if len(via) > maxVia {
		via = append(via[:maxVia/2], via[maxVia/2+1:]...)
		u.Elided++
	}
	u.Via = via
	return u
}

// unresolvedSet holds the placeholders a resolution kept as written: the
// first few, and how many there were.
type unresolvedSet struct {
	list  []Unresolved
	count int
}

// maxUnresolvedListed bounds the placeholders listed of one value.
const maxUnresolvedListed = 4

func (s *unresolvedSet) add(u Unresolved) {
	s.count++
	if len(s.list) < maxUnresolvedListed {
		s.list = append(s.list, u)
	}
}

// addUnder adds what from holds, reached through name's value.
func (s *unresolvedSet) addUnder(name string, from unresolvedSet) {
	for _, u := range from.list {
		if len(s.list) < maxUnresolvedListed {
			s.list = append(s.list, u.under(name))
		}
	}
	s.count += from.count
}

// unresolvedError is a placeholder that nothing resolves, in a strict
// resolution.
type unresolvedError struct{ u Unresolved }

func (e *unresolvedError) Error() string { return "could not resolve placeholder " + e.u.String() }

// viaName returns err as met through name's value: an unresolved
// placeholder's chain begins with name.
func viaName(name string, err error) error {
	if ue, ok := err.(*unresolvedError); ok {
		return &unresolvedError{u: ue.u.under(name)}
	}
	return err
}
