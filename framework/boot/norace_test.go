//go:build !race

package boot_test

// raceEnabled reports that the race detector is on: it makes start-up
// several times slower, so time limits stretch under it.
const raceEnabled = false
