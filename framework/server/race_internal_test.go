//go:build race

package server

// raceEnabled reports that the race detector is on: compression is some
// ten times slower under it.
const raceEnabled = true
