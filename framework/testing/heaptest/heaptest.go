// Package heaptest measures the heap of the test's process: what it holds
// now, what it holds once garbage is collected, and its peak while
// something runs. The heap is the whole process's, so a test that uses it
// must not run in parallel with others. Only tests import it.
package heaptest

import (
	"runtime"
	"time"
)

// InUse is the heap in use now (runtime.MemStats.HeapInuse), garbage not
// yet collected included.
func InUse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// Live is the heap in use once garbage is collected: what the process
// holds, rather than what it has yet to collect. It collects twice, so
// that what a finalizer of the first collection released is gone too.
func Live() uint64 {
	runtime.GC()
	runtime.GC()
	return InUse()
}

// SamplePeak samples the heap in use every 10 ms until the function it
// returns is called, which returns the highest sample.
func SamplePeak() (peak func() uint64) {
	var top uint64
	stop, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			top = max(top, InUse())
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-sampled
		return top
	}
}
