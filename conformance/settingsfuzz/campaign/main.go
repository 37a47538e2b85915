// Command campaign runs the settings fuzzing outside CI: it generates
// cases, loads each with the framework and with Spring Boot (one JVM),
// and prints the count, each side's cases per minute, and the
// differences, each minimized, with the deliberate ones counted apart.
//
//	go run ./conformance/settingsfuzz/campaign -n 2000 -seed 1
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/springport/greeter/conformance/settingsfuzz"
)

func main() {
	n := flag.Int("n", 2000, "cases to generate")
	seed := flag.Uint64("seed", 1, "the generator's seed")
	jar := flag.String("jar", "conformance/springenv/target/springenv.jar", "conformance/springenv's jar (built by conformance/springenv/build)")
	minimize := flag.Bool("minimize", true, "minimize each difference")
	show := flag.Int("show", 20, "print this many differing cases in full")
	flag.Parse()
	if err := run(*n, *seed, *jar, *minimize, *show); err != nil {
		fmt.Fprintln(os.Stderr, "campaign:", err)
		os.Exit(1)
	}
}

func run(n int, seed uint64, jar string, minimize bool, show int) error {
	dir, err := os.MkdirTemp("", "settingsfuzz-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	spring, err := settingsfuzz.StartSpring(jar)
	if err != nil {
		return err
	}
	defer spring.Close()
	var goTime, springTime time.Duration
	type finding struct {
		c     *settingsfuzz.Case
		diffs []settingsfuzz.Diff
	}
	var found []finding
	deliberate := map[string]int{}
	for i := range n {
		c := settingsfuzz.Generate(seed, i)
		sr, gr, err := c.Write(filepath.Join(dir, fmt.Sprint(i)))
		if err != nil {
			return err
		}
		t := time.Now()
		gres := settingsfuzz.LoadGo(gr)
		goTime += time.Since(t)
		t = time.Now()
		sres, err := spring.Load(sr)
		springTime += time.Since(t)
		if err != nil {
			return err
		}
		diffs := settingsfuzz.Compare(sres, gres)
		if len(diffs) == 0 {
			continue
		}
		if d := settingsfuzz.Deliberate(c, diffs); d != nil {
			deliberate[d.Name]++
			continue
		}
		found = append(found, finding{c, diffs})
	}
	perMinute := func(d time.Duration) float64 { return float64(n) / d.Minutes() }
	fmt.Printf("cases: %d (seed %d)\n", n, seed)
	fmt.Printf("framework: %.0f cases/min (%.2f ms each); Spring Boot: %.0f cases/min (%.2f ms each, one JVM, its start-up included)\n",
		perMinute(goTime), float64(goTime.Microseconds())/1000/float64(n), perMinute(springTime), float64(springTime.Microseconds())/1000/float64(n))
	for name, count := range deliberate {
		fmt.Printf("deliberate: %d cases: %s\n", count, name)
	}
	fmt.Printf("differences: %d cases\n", len(found))
	for i, f := range found {
		if i >= show {
			break
		}
		c := f.c
		diffs := f.diffs
		if minimize {
			c, diffs, err = settingsfuzz.Minimize(c, spring, filepath.Join(dir, "min"))
			if err != nil {
				return err
			}
		}
		fmt.Printf("\n%s", c)
		for _, d := range diffs {
			fmt.Printf("  DIFF %s\n", d)
		}
	}
	if len(found) > 0 {
		os.Exit(2)
	}
	return nil
}
