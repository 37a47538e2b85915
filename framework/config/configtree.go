package config

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A config tree is a directory where each file is one setting: the file's
// path below the directory is the key, folders joined with dots
// (db/password is db.password), and its contents are the value, one
// trailing newline trimmed. Kubernetes mounts secrets and config maps this
// way; app.config.import=configtree:/etc/config/ reads one.
//
// Names starting with a dot are skipped, files and folders alike, as in
// Spring: Kubernetes keeps the real files in hidden folders (..data,
// ..2024_01_01...) and links to them, so reading those too would define
// every key twice under odd names. Links are followed.

// readConfigTree reads the config tree at dir (as opened) and returns its
// settings as a source named name; shown is dir as origins show it.
func readConfigTree(dir, shown, name string) (*source, error) {
	src := newSource(name)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path == dir {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		// A link's type is that of the link; what counts is its target.
		info, err := os.Stat(path)
		if err != nil || !info.Mode().IsRegular() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		value, crlf := strings.CutSuffix(string(data), "\r\n")
		if !crlf {
			value = strings.TrimSuffix(value, "\n")
		}
		key := strings.ReplaceAll(filepath.ToSlash(rel), "/", ".")
		src.set(key, value, "file ["+filepath.Join(shown, rel)+"]")
		return nil
	})
	if err != nil {
		return nil, err
	}
	return src, nil
}
