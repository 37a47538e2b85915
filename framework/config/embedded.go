package config

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// EmbeddedSettingsError is Load's refusal of packaged settings files that
// sit in a folder of the embedded files rather than at their root, where
// they are read: what //go:embed resources gives, since an embed.FS keeps
// the folder in its paths. Ignored, they would leave the service on its
// defaults without a word; found by guessing the folder, a later second
// folder would change which is read, and the classpath: imports would
// no longer name what the files' author saw. So Load refuses them, and
// the service passes the folder itself (fs.Sub).
type EmbeddedSettingsError struct {
	Dir   string   // the folder that holds them ("resources"), the first by name when several do
	Files []string // the settings files found there, as the embedded files' paths
}

func (e *EmbeddedSettingsError) Error() string {
	return fmt.Sprintf("the packaged settings files are in the folder %s/ of the embedded files (%s), not at their root, where they are read; pass that folder as the embedded files (fs.Sub)",
		e.Dir, strings.Join(e.Files, ", "))
}

// checkEmbeddedRoot refuses embedded files whose root holds no settings
// file while a folder at the root does (see EmbeddedSettingsError). A root
// with settings files, or files with none anywhere near it, is fine.
func checkEmbeddedRoot(fsys fs.FS, names []string) error {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil // reading the files themselves reports it
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		} else if isSettingsFile(e.Name(), names) {
			return nil
		}
	}
	slices.Sort(dirs)
	for _, dir := range dirs {
		inner, err := fs.ReadDir(fsys, dir)
		if err != nil {
			continue
		}
		var files []string
		for _, e := range inner {
			if !e.IsDir() && isSettingsFile(e.Name(), names) {
				files = append(files, path.Join(dir, e.Name()))
			}
		}
		if len(files) > 0 {
			return &EmbeddedSettingsError{Dir: dir, Files: files}
		}
	}
	return nil
}

// isSettingsFile reports whether a file's name is that of a settings file
// Load would read at a location: one of the names (app.config.name),
// alone or with a profile, and a settings extension.
func isSettingsFile(name string, names []string) bool {
	ext := path.Ext(name)
	if !slices.Contains(extensions, ext) {
		return false
	}
	base := strings.TrimSuffix(name, ext)
	return slices.ContainsFunc(names, func(n string) bool { return base == n || strings.HasPrefix(base, n+"-") })
}
