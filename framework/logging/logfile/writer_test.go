package logfile

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/springport/greeter/framework/testing/clocktest"
)

// open opens a Writer on dir/app.log with pattern (relative to dir) and
// policy, closed when the test ends.
func open(t *testing.T, dir, pattern string, policy Policy, now func() time.Time) (*Writer, *[]error) {
	t.Helper()
	p, err := ParsePattern(filepath.Join(dir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	policy.Pattern = p
	if policy.MaxFileSize == 0 {
		policy.MaxFileSize = 10 << 20
	}
	var mu sync.Mutex
	var reports []error
	w, err := Open(Options{Name: filepath.Join(dir, "app.log"), Policy: policy, Now: now, Report: func(err error) {
		mu.Lock()
		reports = append(reports, err)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, &reports
}

// files returns every file under dir, relative, with its content,
// gzip and zip archives decompressed.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		switch filepath.Ext(path) {
		case ".gz":
			z, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			if b, err = io.ReadAll(z); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
		case ".zip":
			z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil || len(z.File) != 1 {
				return fmt.Errorf("%s: %v, %d entries", path, err, len(z.File))
			}
			r, err := z.File[0].Open()
			if err != nil {
				return err
			}
			if b, err = io.ReadAll(r); err != nil {
				return err
			}
			out[path+"#"+z.File[0].Name] = ""
		}
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func names(m map[string]string) []string {
	var n []string
	for k := range m {
		if !strings.Contains(k, "#") {
			n = append(n, k)
		}
	}
	slices.Sort(n)
	return n
}

func write(t *testing.T, w *Writer, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := w.Write([]byte(l + "\n")); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSizeRotation: the file is archived before the line that would
// take it past max-file-size, so that no file passes it and no line is
// split; the archives of a period are numbered from 0; a line longer
// than the limit has a file of its own.
func TestSizeRotation(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clock := clocktest.New()
	w, reports := open(t, dir, "app.log.%d{yyyy-MM-dd, UTC}.%i.log", Policy{MaxFileSize: 20}, clock.Now)
	write(t, w, "line-0001", "line-0002", "line-0003", "line-0004", "line-0005", strings.Repeat("x", 30), "line-0006")
	w.Close()
	got := files(t, dir)
	want := map[string]string{
		"app.log.2025-01-02.0.log": "line-0001\nline-0002\n",
		"app.log.2025-01-02.1.log": "line-0003\nline-0004\n",
		"app.log.2025-01-02.2.log": "line-0005\n",
		"app.log.2025-01-02.3.log": strings.Repeat("x", 30) + "\n",
		"app.log":                  "line-0006\n",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("files:\n%v\nwant\n%v", got, want)
	}
	if len(*reports) > 0 {
		t.Errorf("reported %v", *reports)
	}
}

// TestDateRotation: the first line of a new period archives the file
// under the period its lines were of, and the index starts again at 0;
// the archives are gzipped off the write path, whole by Close.
func TestDateRotation(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clock := clocktest.New() // 2025-01-02 03:04:05 UTC
	w, _ := open(t, dir, "app.log.%d{yyyy-MM-dd, UTC}.%i.gz", Policy{MaxFileSize: 20}, clock.Now)
	write(t, w, "day-2 a", "day-2 b", "day-2 c")
	clock.Advance(21 * time.Hour) // 00:04 on the 3rd
	write(t, w, "day-3 a")
	clock.Advance(time.Hour)
	write(t, w, "day-3 b")
	clock.Advance(48 * time.Hour)
	write(t, w, "day-5 a")
	w.Close()
	want := map[string]string{
		"app.log.2025-01-02.0.gz": "day-2 a\nday-2 b\n",
		"app.log.2025-01-02.1.gz": "day-2 c\n",
		"app.log.2025-01-03.0.gz": "day-3 a\nday-3 b\n",
		"app.log":                 "day-5 a\n",
	}
	if got := files(t, dir); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("files:\n%v\nwant\n%v", got, want)
	}
}

// TestHourlyZip: an hourly pattern rolls every hour, into zip archives
// of one entry named as the archive without .zip, in folders the
// pattern's aux date makes.
func TestHourlyZip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clock := clocktest.New()
	w, _ := open(t, dir, "%d{yyyy-MM, aux, UTC}/app.%d{yyyy-MM-dd_HH, UTC}.%i.zip", Policy{}, clock.Now)
	write(t, w, "03h")
	clock.Advance(time.Hour)
	write(t, w, "04h")
	clock.Advance(time.Hour)
	write(t, w, "05h")
	w.Close()
	got := files(t, dir)
	if got["2025-01/app.2025-01-02_03.0.zip"] != "03h\n" || got["2025-01/app.2025-01-02_04.0.zip"] != "04h\n" || got["app.log"] != "05h\n" {
		t.Errorf("files: %v", got)
	}
	if _, ok := got[filepath.Join(dir, "2025-01/app.2025-01-02_03.0.zip")+"#app.2025-01-02_03.0"]; !ok {
		t.Errorf("the zip's entry is not named as the archive: %v", got)
	}
}

// TestMaxHistory: archives of periods more than max-history before the
// current one are removed after an archive is made (as Logback counts
// periods of the pattern, not files); 0 keeps every one.
func TestMaxHistory(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		history int
		want    []string
	}{
		{4, []string{"app.log", "app.log.2025-01-07.0.log", "app.log.2025-01-07.1.log", "app.log.2025-01-07.2.log", "app.log.2025-01-08.0.log", "app.log.2025-01-09.0.log", "app.log.2025-01-10.0.log"}},
		{0, nil},
	} {
		dir := t.TempDir()
		clock := clocktest.New()
		w, _ := open(t, dir, "app.log.%d{yyyy-MM-dd, UTC}.%i.log", Policy{MaxFileSize: 10, MaxHistory: c.history}, clock.Now)
		for day := 2; day <= 10; day++ {
			write(t, w, fmt.Sprintf("day %02d", day))
			if day == 7 {
				write(t, w, "day 07 b", "day 07 c")
			}
			clock.Advance(24 * time.Hour)
		}
		write(t, w, "day 11")
		w.Close()
		got := names(files(t, dir))
		if c.history == 0 {
			if len(got) != 12 {
				t.Errorf("max-history 0 kept %v, want every archive", got)
			}
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("max-history %d kept %v, want %v", c.history, got, c.want)
		}
	}
}

// TestTotalSizeCap: past total-size-cap the oldest archives go, newest
// kept, within max-history.
func TestTotalSizeCap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clock := clocktest.New()
	w, _ := open(t, dir, "app.log.%d{yyyy-MM-dd, UTC}.%i.log", Policy{MaxFileSize: 10, MaxHistory: 30, TotalSizeCap: 25}, clock.Now)
	for i := range 6 {
		write(t, w, fmt.Sprintf("line %03d", i)) // 9 bytes: one a file
	}
	w.Close()
	got := names(files(t, dir))
	// Newest first: 4 and 3 take 18 bytes, 2 would take them to 27.
	want := []string{"app.log", "app.log.2025-01-02.3.log", "app.log.2025-01-02.4.log"}
	if !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
}

// TestCleanHistoryOnStart: with clean-history-on-start the archives
// past the policy go when the file is opened; without, they stay until
// an archive is made, as in Logback.
func TestCleanHistoryOnStart(t *testing.T) {
	t.Parallel()
	for _, clean := range []bool{true, false} {
		dir := t.TempDir()
		for _, name := range []string{"app.log.2024-12-01.0.gz", "app.log.2024-12-30.0.gz", "app.log.2025-01-01.3.gz", "other.txt"} {
			if err := os.WriteFile(filepath.Join(dir, name), gzipped(t, "x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		clock := clocktest.New()
		w, _ := open(t, dir, "app.log.%d{yyyy-MM-dd, UTC}.%i.gz", Policy{MaxHistory: 2, CleanHistoryOnStart: clean}, clock.Now)
		w.Close()
		got := names(files(t, dir))
		want := []string{"app.log", "app.log.2025-01-01.3.gz", "other.txt"}
		if !clean {
			want = []string{"app.log", "app.log.2024-12-01.0.gz", "app.log.2024-12-30.0.gz", "app.log.2025-01-01.3.gz", "other.txt"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("clean-history-on-start=%v kept %v, want %v", clean, got, want)
		}
	}
}

// TestCrashMidCompressLosesNothing: an archive left uncompressed (the
// process stopped while compressing it, a partial .tmp beside it) is
// compressed when the file is next opened, and nothing is lost.
func TestCrashMidCompressLosesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	raw := filepath.Join(dir, "app.log.2025-01-02.0")
	if err := os.WriteFile(raw, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(raw+".gz.tmp", []byte("\x1f\x8bpartial"), 0o644); err != nil {
		t.Fatal(err)
	}
	clock := clocktest.New()
	w, _ := open(t, dir, "app.log.%d{yyyy-MM-dd, UTC}.%i.gz", Policy{MaxFileSize: 5}, clock.Now)
	write(t, w, "next")
	write(t, w, "last")
	w.Close()
	want := map[string]string{"app.log": "last\n", "app.log.2025-01-02.0.gz": "kept\n", "app.log.2025-01-02.1.gz": "next\n"}
	if got := files(t, dir); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("files:\n%v\nwant\n%v", got, want)
	}
}

// TestAppendsToThePeriodOfItsLines: a file written yesterday is
// appended to, and archived under yesterday's date at today's first
// line past the period, as Logback dates it by its modification time.
func TestAppendsToThePeriodOfItsLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, "app.log")
	if err := os.WriteFile(name, []byte("yesterday\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	clock := clocktest.New()
	yesterday := clock.Now().Add(-24 * time.Hour)
	if err := os.Chtimes(name, yesterday, yesterday); err != nil {
		t.Fatal(err)
	}
	w, _ := open(t, dir, "app.log.%d{yyyy-MM-dd, UTC}.%i.log", Policy{}, clock.Now)
	write(t, w, "today")
	w.Close()
	want := map[string]string{"app.log": "today\n", "app.log.2025-01-01.0.log": "yesterday\n"}
	if got := files(t, dir); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("files:\n%v\nwant\n%v", got, want)
	}
}

// TestFailuresAreReportedOnce: a file that cannot be written any more,
// and archives that cannot be made, are reported once each and do not
// stop the writer: the lines that cannot be archived stay in the file.
func TestFailuresAreReportedOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	blocker := filepath.Join(dir, "blocker")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	clock := clocktest.New()
	w, reports := open(t, dir, "blocker/sub/app.%d{yyyy-MM-dd, UTC}.%i.log", Policy{MaxFileSize: 5}, clock.Now)
	write(t, w, "one", "two", "three")
	if got, _ := os.ReadFile(filepath.Join(dir, "app.log")); string(got) != "one\ntwo\nthree\n" {
		t.Errorf("the file holds %q", got)
	}
	w.Close()
	if len(*reports) != 1 || !strings.Contains((*reports)[0].Error(), "archiving") {
		t.Errorf("reports %v, want one about archiving", *reports)
	}

	w, reports = open(t, t.TempDir(), "app.%d{yyyy-MM-dd, UTC}.%i.log", Policy{}, clock.Now)
	write(t, w, "written")
	w.mu.Lock()
	w.file.Close() // behind the writer's back: its writes now fail
	w.mu.Unlock()
	for range 3 {
		if _, err := w.Write([]byte("lost\n")); err == nil {
			t.Fatal("a write to a closed file did not fail")
		}
	}
	w.Close()
	if len(*reports) != 1 || !errors.Is((*reports)[0], os.ErrClosed) {
		t.Errorf("reports %v, want one about writing", *reports)
	}
	if w.Failed() != 3 {
		t.Errorf("failed %d, want 3", w.Failed())
	}
}

// TestOpenRefusesWhatCannotBeWritten: a file under a regular file, or a
// folder in its place, is an error at Open (root may write anywhere
// else).
func TestOpenRefusesWhatCannotBeWritten(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p, _ := ParsePattern(filepath.Join(dir, "a.%d.%i"))
	for _, name := range []string{filepath.Join(regular, "app.log"), dir} {
		if w, err := Open(Options{Name: name, Policy: Policy{Pattern: p, MaxFileSize: 1}}); err == nil {
			w.Close()
			t.Errorf("%s opened", name)
		}
	}
}

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
