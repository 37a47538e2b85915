//go:build !linux

package metrics

// Outside Linux the CPU usage, the load average and the file descriptors
// are not read: their meters are left out (see process.go).

func readCPU() (cpuSample, bool)     { return cpuSample{}, false }
func loadAverage1m() (float64, bool) { return 0, false }
func openFiles() (int, bool)         { return 0, false }
func maxFiles() (uint64, bool)       { return 0, false }
