package conformance_test

// Differential fuzzing of settings (issue 36): Spring Boot 4.1.2
// (conformance/springenv, one JVM for every case) and the framework's
// config.Load load the same generated settings trees, and must agree on
// every compared key's value, the active and default profiles, and
// whether the start is refused, but for the deliberate differences
// (conformance/settingsfuzz/deliberate.go). The campaign of thousands of
// cases runs outside CI: conformance/settingsfuzz/run.

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/springport/greeter/conformance/settingsfuzz"
)

// springenvJar is conformance/springenv's program, which
// conformance/springenv/build makes.
var springenvJar = filepath.Join("springenv", "target", "springenv.jar")

// settingsFuzzSeed and settingsFuzzCases are CI's share of the campaign:
// fixed, so that a failure reproduces (go run
// ./conformance/settingsfuzz/campaign -seed 36 -n 300).
const (
	settingsFuzzSeed  = 36
	settingsFuzzCases = 300
)

func startSpringenv(t *testing.T) *settingsfuzz.SpringLoader {
	t.Helper()
	needJar(t, springenvJar, "conformance/springenv/build")
	s, err := settingsfuzz.StartSpring(springenvJar)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestSettingsFuzz runs, in one JVM, the differences the fuzzing found
// (regressions) and CI's share of generated cases (generated).
func TestSettingsFuzz(t *testing.T) {
	spring := startSpringenv(t)
	t.Run("regressions", func(t *testing.T) { settingsFuzzRegressions(t, spring) })
	t.Run("generated", func(t *testing.T) { settingsFuzzGenerated(t, spring) })
}

// settingsFuzzRegressions runs the differences the fuzzing found,
// minimized: each must now load alike on both sides, or be the deliberate
// difference it names (and still differ, so that an entry Spring no
// longer needs is noticed).
func settingsFuzzRegressions(t *testing.T, spring *settingsfuzz.SpringLoader) {
	rs, err := settingsfuzz.ReadRegressions(filepath.Join("settingsfuzz", "testdata", "regressions.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i, r := range rs {
		c := r.Case
		diffs, sres, gres, err := settingsfuzz.Run(&c, spring, filepath.Join(dir, fmt.Sprint(i)))
		if err != nil {
			t.Fatal(err)
		}
		switch known := settingsfuzz.Deliberate(&c, diffs); {
		case r.Deliberate == "" && len(diffs) > 0:
			t.Errorf("%s (%s):\n%s%v\nspring %+v\ngo     %+v", c.Name, r.Why, c.String(), diffs, sres, gres)
		case r.Deliberate != "" && (known == nil || known.Name != r.Deliberate):
			t.Errorf("%s: want the deliberate difference %s, got differences %v", c.Name, r.Deliberate, diffs)
		}
	}
}

// settingsFuzzGenerated loads CI's share of generated cases on both
// sides. A difference fails the test with the case minimized.
func settingsFuzzGenerated(t *testing.T, spring *settingsfuzz.SpringLoader) {
	dir := t.TempDir()
	failures := 0
	for i := range settingsFuzzCases {
		c := settingsfuzz.Generate(settingsFuzzSeed, i)
		diffs, _, _, err := settingsfuzz.Run(c, spring, filepath.Join(dir, fmt.Sprint(i)))
		if err != nil {
			t.Fatal(err)
		}
		if len(diffs) == 0 || settingsfuzz.Deliberate(c, diffs) != nil {
			continue
		}
		if failures++; failures > 5 {
			continue // reported in the count below, not each in full
		}
		min, minDiffs, err := settingsfuzz.Minimize(c, spring, filepath.Join(dir, "min"))
		if err != nil {
			t.Fatal(err)
		}
		t.Errorf("settings resolve otherwise than in Spring Boot (minimized from case %s):\n%s%v", c.Name, min.String(), minDiffs)
	}
	if failures > 0 {
		t.Errorf("%d of %d cases differ (seed %d)", failures, settingsFuzzCases, settingsFuzzSeed)
	}
}
