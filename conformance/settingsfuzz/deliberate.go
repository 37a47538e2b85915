package settingsfuzz

// A Known difference is one the framework makes on purpose: it covers
// the differences of a case that Match accepts, with its reason. The CI
// test and the campaign count these apart and fail on any other.
type Known struct {
	Name   string
	Reason string
	Match  func(c *Case, diffs []Diff) bool
}

// known are the deliberate differences.
var known = []Known{}

// Deliberate returns the known difference that covers a case's
// differences, or nil.
func Deliberate(c *Case, diffs []Diff) *Known {
	for i := range known {
		if known[i].Match(c, diffs) {
			return &known[i]
		}
	}
	return nil
}
