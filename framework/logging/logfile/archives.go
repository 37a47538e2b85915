package logfile

import (
	"archive/zip"
	"cmp"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// An archive is a file the pattern names.
type archive struct {
	path       string
	start      time.Time // its period's
	index      int
	compressed bool
	size       int64
}

// archives lists the archives under the pattern's base folder, down as
// many folders as the pattern has (%d{yyyy/MM, aux}/app.%d.%i.gz).
func (w *Writer) archives() ([]archive, error) {
	p := w.policy.Pattern
	base := p.base()
	depth := strings.Count(filepath.ToSlash(p.text), "/") - strings.Count(filepath.ToSlash(base), "/")
	var list []archive
	err := filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == base && os.IsNotExist(err) {
				return fs.SkipAll
			}
			return nil // a folder that cannot be read holds no archive we can remove
		}
		rel, _ := filepath.Rel(base, path)
		if d.IsDir() {
			if path != base && strings.Count(filepath.ToSlash(rel), "/") >= depth {
				return fs.SkipDir
			}
			return nil
		}
		start, index, compressed, ok := p.match(w.matcher, filepath.ToSlash(rel))
		if !ok || !d.Type().IsRegular() || filepath.Clean(path) == filepath.Clean(w.name) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		list = append(list, archive{path: path, start: start, index: index, compressed: compressed, size: info.Size()})
		return nil
	})
	return list, err
}

// highestIndex is the highest index of an archive of the period that
// starts at start, or -1.
func highestIndex(w *Writer, start time.Time) int {
	list, _ := w.archives()
	highest := -1
	for _, a := range list {
		if a.start.Equal(start) {
			highest = max(highest, a.index)
		}
	}
	return highest
}

// A housekeeper compresses the archives and removes the old ones, one
// job at a time, off the path of a line. Rolling only adds to its list.
type housekeeper struct {
	w       *Writer
	mu      sync.Mutex
	jobs    []job
	wake    chan struct{}
	done    chan struct{}
	stopped bool
}

// A job compresses raw into target (when they differ) and then removes
// what the policy no longer keeps, as of now.
type job struct {
	raw, target string
	clean       bool
	now         time.Time
}

func newHousekeeper(w *Writer) *housekeeper {
	h := &housekeeper{w: w, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go h.run()
	return h
}

func (h *housekeeper) add(j job) {
	h.mu.Lock()
	h.jobs = append(h.jobs, j)
	h.mu.Unlock()
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// archived is told of an archive just made.
func (h *housekeeper) archived(raw, target string, now time.Time) {
	h.add(job{raw: raw, target: target, clean: true, now: now})
}

// clean removes what the policy no longer keeps, as of now.
func (h *housekeeper) clean(now time.Time) { h.add(job{clean: true, now: now}) }

// recover compresses the archives that a stop (a crash, a kill) left
// uncompressed: the raw file is removed only once its compressed copy is
// whole, so that one is always there.
func (h *housekeeper) recover() {
	p := h.w.policy.Pattern
	if p.compression == "" {
		return
	}
	list, _ := h.w.archives()
	for _, a := range list {
		if !a.compressed {
			h.add(job{raw: a.path, target: a.path + p.compression})
		}
	}
}

// stop waits for the jobs listed to be done.
func (h *housekeeper) stop() {
	h.mu.Lock()
	h.stopped = true
	h.mu.Unlock()
	select {
	case h.wake <- struct{}{}:
	default:
	}
	<-h.done
}

func (h *housekeeper) run() {
	defer close(h.done)
	for {
		h.mu.Lock()
		jobs, stopped := h.jobs, h.stopped
		h.jobs = nil
		h.mu.Unlock()
		if len(jobs) == 0 && stopped {
			return
		}
		var cleanAt time.Time
		for _, j := range jobs {
			if j.target != "" && j.raw != j.target {
				if err := compress(j.raw, j.target, h.w.policy.Pattern.compression); err != nil && !os.IsNotExist(err) {
					h.fail(err)
				}
			}
			if j.clean {
				cleanAt = j.now
			}
		}
		if !cleanAt.IsZero() {
			h.removeOld(cleanAt)
		}
		if len(jobs) == 0 {
			<-h.wake
		}
	}
}

// fail reports the first failure to archive.
func (h *housekeeper) fail(err error) {
	if h.w.report != nil && h.w.hkWarns.CompareAndSwap(false, true) {
		h.w.report(err)
	}
}

// removeOld removes the archives of the periods more than MaxHistory
// before now's, then, newest first, those past TotalSizeCap, as
// Logback's TimeBasedArchiveRemover does. Without a MaxHistory nothing is
// removed, as in Logback.
func (h *housekeeper) removeOld(now time.Time) {
	pol := h.w.policy
	if pol.MaxHistory <= 0 {
		return
	}
	list, err := h.w.archives()
	if err != nil {
		h.fail(fmt.Errorf("listing the archives of %s: %w", h.w.name, err))
		return
	}
	p := pol.Pattern
	oldest := p.period.add(p.periodStart(now), -pol.MaxHistory)
	// Newest first: by period, then index.
	slices.SortFunc(list, func(a, b archive) int {
		if c := b.start.Compare(a.start); c != 0 {
			return c
		}
		return cmp.Compare(b.index, a.index)
	})
	var total int64
	for _, a := range list {
		total += a.size
		if a.start.Before(oldest) || pol.TotalSizeCap > 0 && total > pol.TotalSizeCap {
			if err := os.Remove(a.path); err != nil && !os.IsNotExist(err) {
				h.fail(fmt.Errorf("removing an old archive: %w", err))
				continue
			}
			// A folder of the pattern's left empty goes too (Logback's parentClean).
			if dir := filepath.Dir(a.path); filepath.Clean(dir) != filepath.Clean(p.base()) {
				os.Remove(dir)
			}
		}
	}
}

// compress writes raw compressed to target (through a temporary file,
// renamed over target once whole and synced), then removes raw. A stop
// in between leaves raw, which the next Open compresses again.
func compress(raw, target, suffix string) error {
	in, err := os.Open(raw)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := target + ".tmp"
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("compressing %s: %w", raw, err)
	}
	err = encode(out, in, filepath.Base(raw), suffix)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, target)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("compressing %s: %w", raw, err)
	}
	return os.Remove(raw)
}

// encode writes in to out as gzip, or as a zip of one entry named entry.
func encode(out io.Writer, in io.Reader, entry, suffix string) error {
	if suffix == ".zip" {
		z := zip.NewWriter(out)
		e, err := z.Create(entry)
		if err == nil {
			_, err = io.Copy(e, in)
		}
		if cerr := z.Close(); err == nil {
			err = cerr
		}
		return err
	}
	z := gzip.NewWriter(out)
	_, err := io.Copy(z, in)
	if cerr := z.Close(); err == nil {
		err = cerr
	}
	return err
}
