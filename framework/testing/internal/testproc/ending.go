package testproc

import (
	"fmt"
	"testing"
)

// Ending calls f with a testing.TB whose Skipf and Fatalf record how f
// ends the test instead of ending t, for checking a harness's rule that a
// missing program skips a test on a laptop and fails it in CI. kind is
// "skip", "fatal", or "run" when f returned.
func Ending(t testing.TB, f func(testing.TB)) (kind, msg string) {
	o := &outcomeTB{TB: t, kind: "run"}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(ended); !ok {
				panic(r)
			}
		}
		kind, msg = o.kind, o.msg
	}()
	f(o)
	return o.kind, o.msg
}

type outcomeTB struct {
	testing.TB
	kind, msg string
}

type ended struct{}

func (o *outcomeTB) Helper() {}
func (o *outcomeTB) Skipf(format string, args ...any) {
	o.kind, o.msg = "skip", fmt.Sprintf(format, args...)
	panic(ended{})
}
func (o *outcomeTB) Fatalf(format string, args ...any) {
	o.kind, o.msg = "fatal", fmt.Sprintf(format, args...)
	panic(ended{})
}
