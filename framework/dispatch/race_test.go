//go:build race

package dispatch

// raceEnabled reports that the race detector is on; allocation counts
// differ under it.
const raceEnabled = true
