package logfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Policy is Spring Boot's rolling policy for Logback
// (logging.logback.rollingpolicy.*).
type Policy struct {
	// Pattern names the archives (file-name-pattern).
	Pattern *Pattern
	// MaxFileSize is the size past which the file is archived
	// (max-file-size): before a line that would take it past.
	MaxFileSize int64
	// MaxHistory is how many periods of the pattern's %d, before the
	// current one, keep their archives (max-history); 0 keeps every one.
	MaxHistory int
	// TotalSizeCap bounds the archives' total size, the oldest removed
	// first (total-size-cap); 0 is no bound. As in Logback it is
	// applied only with a MaxHistory.
	TotalSizeCap int64
	// CleanHistoryOnStart applies MaxHistory and TotalSizeCap when the
	// file is opened, not only after an archive is made.
	CleanHistoryOnStart bool
}

// Options are what Open is given.
type Options struct {
	Name   string // the file written
	Policy Policy
	// Now is the clock (time.Now when nil): a test's moves the period on.
	Now func() time.Time
	// Report is told the first failure to write the file, and the first
	// failure to archive or remove archives, once each: the lines go on
	// to the other outputs. Nil says nothing.
	Report func(error)
}

// A Writer writes a log file and archives it as Logback's
// RollingFileAppender with SizeAndTimeBasedRollingPolicy does, for
// slog's handlers: each Write is one whole line, written to one file
// under the Writer's lock, so that no line is split across an archive.
// The archive is made before a line that would take the file past
// MaxFileSize and before the first line of a new period; compressing it
// and removing old archives happen in the background, off the path of a
// line.
type Writer struct {
	name    string
	policy  Policy
	now     func() time.Time
	report  func(error)
	matcher matcher

	mu     sync.Mutex
	file   *os.File
	size   int64
	start  time.Time // the start of the period the file's lines are of
	end    time.Time // and of the next
	index  int       // the next archive's index in the period
	closed bool

	work    *housekeeper
	failed  atomic.Int64 // lines the file lost
	warned  atomic.Bool  // a failure to write was reported
	hkWarns atomic.Bool  // a failure to archive was reported
}

// Open opens (or creates, with its folders, as Logback does) the file
// name to append to. An error says why it cannot be written: start-up
// stops on it.
func Open(o Options) (*Writer, error) {
	if o.Policy.Pattern == nil {
		return nil, errors.New("logfile: no file-name pattern")
	}
	if o.Policy.MaxFileSize <= 0 {
		return nil, errors.New("logfile: max-file-size must be positive")
	}
	w := &Writer{name: o.Name, policy: o.Policy, now: o.Now, report: o.Report, matcher: o.Policy.Pattern.matcher()}
	if w.now == nil {
		w.now = time.Now
	}
	if err := os.MkdirAll(filepath.Dir(o.Name), 0o755); err != nil {
		return nil, fmt.Errorf("cannot create its folder: %w", err)
	}
	f, err := os.OpenFile(o.Name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file", o.Name)
	}
	w.file, w.size = f, info.Size()
	// Lines already there are of the period their file was last written
	// in, as Logback takes it from the file's modification time.
	when := w.now()
	if w.size > 0 {
		when = info.ModTime()
	}
	w.setPeriod(when)
	w.work = newHousekeeper(w)
	w.work.recover()
	if o.Policy.CleanHistoryOnStart {
		w.work.clean(w.now())
	}
	return w, nil
}

// setPeriod makes the period that holds t the file's, and the next
// archive's index the first free one in it.
func (w *Writer) setPeriod(t time.Time) {
	p := w.policy.Pattern
	w.start = p.periodStart(t)
	w.end = p.period.add(w.start, 1)
	w.index = highestIndex(w, w.start) + 1
}

// Write writes one line. A failure is counted and reported once; the
// caller's other outputs go on.
func (w *Writer) Write(line []byte) (int, error) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return 0, os.ErrClosed
	}
	if now := w.now(); !now.Before(w.end) {
		w.roll()
		w.setPeriod(now)
	} else if w.size > 0 && w.size+int64(len(line)) > w.policy.MaxFileSize {
		w.roll()
	}
	var n int
	err := errors.New("the file could not be opened again after archiving it")
	if w.file != nil || w.reopen() == nil {
		n, err = w.file.Write(line)
		w.size += int64(n)
	}
	w.mu.Unlock()
	if err != nil {
		w.failed.Add(1)
		if w.report != nil && w.warned.CompareAndSwap(false, true) {
			w.report(fmt.Errorf("writing %s: %w", w.name, err))
		}
	}
	return n, err
}

// Failed counts the lines the file lost.
func (w *Writer) Failed() int64 { return w.failed.Load() }

// roll moves the file to its archive's name and starts an empty one;
// compressing the archive and removing old ones is left to the
// housekeeper. A failure leaves the lines in the file, to be tried
// again at the next line past the limit. Under w.mu.
func (w *Writer) roll() {
	if w.size == 0 {
		return
	}
	p := w.policy.Pattern
	raw := ""
	for ; ; w.index++ { // never over an archive already there
		raw = p.name(w.start, w.index, false)
		if !exists(raw) && !exists(p.name(w.start, w.index, true)) {
			break
		}
	}
	if w.file != nil {
		w.file.Close()
		w.file = nil
	}
	err := os.MkdirAll(filepath.Dir(raw), 0o755)
	if err == nil {
		err = os.Rename(w.name, raw)
	}
	if err != nil {
		w.work.fail(fmt.Errorf("archiving %s as %s: %w", w.name, raw, err))
		w.reopen()
		return
	}
	w.index++
	w.reopen()
	w.work.archived(raw, p.name(w.start, w.index-1, true), w.now())
}

// reopen opens the file to append to. Under w.mu.
func (w *Writer) reopen() error {
	f, err := os.OpenFile(w.name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	w.file, w.size = f, info.Size()
	return nil
}

// Close closes the file, then waits for the archives to be compressed
// and the old ones removed. Lines written after it are dropped.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	var err error
	if w.file != nil {
		err = w.file.Close()
		w.file = nil
	}
	w.mu.Unlock()
	w.work.stop()
	return err
}

func exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}
