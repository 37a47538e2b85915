package logfile

import (
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/springport/greeter/framework/testing/clocktest"
)

// TestConcurrentWritersLoseNoLine: goroutines log numbered lines through
// slog while the file is archived many times, by size and by the hour
// (the clock moving on as they write), into gzip archives compressed
// in the background. Reading every file back, each line written is
// there exactly once, whole.
func TestConcurrentWritersLoseNoLine(t *testing.T) {
	t.Parallel()
	const writers, lines = 8, 1500
	dir := t.TempDir()
	clock := clocktest.New()
	w, reports := open(t, dir, "app.log.%d{yyyy-MM-dd_HH, UTC}.%i.gz", Policy{MaxFileSize: 4 << 10}, clock.Now)
	logger := slog.New(slog.NewTextHandler(w, nil))
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for n := range lines {
				logger.Info("numbered", "g", g, "n", n, "pad", strings.Repeat("p", n%97))
				if n%40 == 0 {
					clock.Advance(time.Minute)
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^time=\S+ level=INFO msg=numbered g=(\d+) n=(\d+) pad=(p*|"")$`)
	seen := map[[2]int]int{}
	archives, hours := 0, map[string]bool{}
	for name, content := range files(t, dir) {
		if strings.Contains(name, "#") {
			continue
		}
		if name != "app.log" {
			if !strings.HasSuffix(name, ".gz") {
				t.Errorf("%s is not compressed", name)
			}
			archives++
			hours[name[len("app.log."):len("app.log.2025-01-02_03")]] = true
		}
		if len(content) > 4<<10 {
			t.Errorf("%s holds %d bytes, past max-file-size", name, len(content))
		}
		if !strings.HasSuffix(content, "\n") && content != "" {
			t.Errorf("%s ends inside a line", name)
		}
		for l := range strings.Lines(content) {
			m := line.FindStringSubmatch(strings.TrimSuffix(l, "\n"))
			if m == nil {
				t.Fatalf("%s: a line not whole: %q", name, l)
			}
			g, _ := strconv.Atoi(m[1])
			n, _ := strconv.Atoi(m[2])
			if strings.Trim(m[3], `"`) != strings.Repeat("p", n%97) {
				t.Fatalf("%s: line %d/%d cut short", name, g, n)
			}
			seen[[2]int{g, n}]++
		}
	}
	for g := range writers {
		for n := range lines {
			if c := seen[[2]int{g, n}]; c != 1 {
				t.Fatalf("line %d/%d found %d times", g, n, c)
			}
		}
	}
	if len(seen) != writers*lines {
		t.Errorf("%d lines read, %d written", len(seen), writers*lines)
	}
	if archives < 100 || len(hours) < 4 {
		t.Errorf("%d archives over %d hours: the test did not archive by size and by the hour enough", archives, len(hours))
	}
	if len(*reports) > 0 {
		t.Errorf("reported: %v", *reports)
	}
	t.Logf("%d archives over %d hours", archives, len(hours))
}
