package settingsfuzz

import (
	"encoding/json"
	"os"
)

// A Regression is a difference the fuzzing found, minimized: a case that
// both sides must now load alike, or that a deliberate difference
// (Deliberate, its name) must cover.
type Regression struct {
	Why        string
	Case       Case
	Deliberate string `json:",omitempty"`
}

// ReadRegressions reads the regressions of a file (testdata/regressions.json).
func ReadRegressions(path string) ([]Regression, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rs []Regression
	return rs, json.Unmarshal(b, &rs)
}
