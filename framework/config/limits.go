package config

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// Every source of settings is bounded, so that what a file, a variable or
// an argument holds cannot make start-up take gigabytes or minutes: a
// hostile or broken source is refused, naming the limit, within a
// second. Spring has no such limits; these are far above any real
// settings (Spring's own test of a big YAML file, 4 MB and 233,000
// settings, loads). They are not settings themselves: one could only be
// read from the sources it bounds.
const (
	// maxSettingsFileBytes bounds a settings file (.properties, .yml,
	// .yaml) and a file of a config tree.
	maxSettingsFileBytes = 8 << 20
	// maxFlattenedEntries bounds the settings one file, one config tree
	// or APP_APPLICATION_JSON may hold. YAML aliases let a few lines stand
	// for a huge tree (the "billion laughs" file).
	maxFlattenedEntries = 500_000
	// maxKeyBytes bounds the total length of those settings' keys: each
	// nested key repeats its parents', so a deep or aliased tree makes
	// keys that grow faster than the text.
	maxKeyBytes = 32 << 20
	// maxNesting bounds how deeply maps and lists nest in YAML and JSON:
	// real settings nest a handful of levels, and every level lengthens
	// every key below it.
	maxNesting = 100
)

// settingsBudget counts what one source has flattened so far.
type settingsBudget struct {
	entries, keyBytes int
}

// add counts the setting key, and fails once the source holds more than
// the limits allow.
func (b *settingsBudget) add(key string) error {
	b.entries++
	b.keyBytes += len(key)
	switch {
	case b.entries > maxFlattenedEntries:
		return fmt.Errorf("more than %d settings; is an alias repeated?", maxFlattenedEntries)
	case b.keyBytes > maxKeyBytes:
		return fmt.Errorf("the keys of its settings are longer than %d MiB together; are maps nested deeply, or aliases repeated?", maxKeyBytes>>20)
	}
	return nil
}

// nestingError is the failure of a map or list nested too deeply.
func nestingError() error {
	return fmt.Errorf("maps and lists nest more than %d levels deep", maxNesting)
}

// openSettingsFile opens the file at path, in fsys or on disk when fsys
// is nil. Opening a named pipe waits, in the kernel, until something opens
// it for writing, which no deadline interrupts: the open runs on its own
// goroutine, and a cancelled ctx returns at once. The goroutine is then
// left waiting; ctx is cancelled only when the process is stopping.
func openSettingsFile(ctx context.Context, fsys fs.FS, path string) (fs.File, error) {
	open := func() (fs.File, error) {
		if fsys != nil {
			return fsys.Open(path)
		}
		return os.Open(path)
	}
	if fsys != nil {
		return open() // embedded files never wait
	}
	if info, err := os.Stat(path); err != nil || info.Mode()&fs.ModeNamedPipe == 0 {
		return open()
	}
	type opened struct {
		f   fs.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := open()
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
		go func() { // close it if it ever opens
			if o := <-done; o.err == nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// readSettingsFile reads the file at path, in fsys or on disk when fsys is
// nil, and fails without reading further once it holds more than
// maxSettingsFileBytes. A read that waits (a pipe, as bash's <(...) makes)
// ends when ctx is cancelled.
func readSettingsFile(ctx context.Context, fsys fs.FS, path string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := openSettingsFile(ctx, fsys, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if d, ok := f.(interface{ SetReadDeadline(time.Time) error }); ok {
		// Pipes take deadlines; regular files, which never wait, do not.
		stop := context.AfterFunc(ctx, func() { d.SetReadDeadline(time.Now()) })
		defer stop()
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSettingsFileBytes+1))
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	if len(data) > maxSettingsFileBytes {
		return nil, fmt.Errorf("the file is larger than %d MiB, the most a settings file may hold", maxSettingsFileBytes>>20)
	}
	return data, nil
}
