package recency

import (
	"slices"
	"testing"
	"time"
)

func TestVictimAndUsedBefore(t *testing.T) {
	var l List
	t0 := time.Unix(0, 0)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	a := l.Add("a", at(0))
	l.Add("b", at(1))
	c := l.Add("c", at(2))
	l.Add("d", at(3))
	l.Use(a, at(4), true) // confirmed
	l.Use(c, at(5), true) // confirmed, more recently
	l.Use(l.Get("b"), at(6), false)
	if l.Len() != 4 {
		t.Fatalf("Len %d, want 4", l.Len())
	}
	var victims []string
	for l.Len() > 0 {
		v := l.Victim()
		victims = append(victims, v.ID)
		l.Remove(v)
	}
	// Unconfirmed first, least recently used first (d at 3, b at 6); then
	// the confirmed (a at 4, c at 5).
	if want := []string{"d", "b", "a", "c"}; !slices.Equal(victims, want) {
		t.Errorf("victims %q, want %q", victims, want)
	}
	if l.Victim() != nil {
		t.Error("an empty list has a victim")
	}

	for i, id := range []string{"p", "q", "r", "s"} {
		s := l.Add(id, at(i))
		if i%2 == 1 {
			l.Use(s, at(i), true)
		}
	}
	var idle []string
	for s := range l.UsedBefore(at(3)) {
		idle = append(idle, s.ID)
		l.Remove(s) // as a store's expiry does, while iterating
	}
	if want := []string{"p", "r", "q"}; !slices.Equal(idle, want) {
		t.Errorf("used before 3: %q, want %q (unconfirmed, then confirmed, oldest first)", idle, want)
	}
	if l.Len() != 1 || l.Get("s") == nil || !l.Get("s").Confirmed {
		t.Errorf("left %d sessions; want s, confirmed", l.Len())
	}
}
