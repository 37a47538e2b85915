package config

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A config tree is a directory where each file is one setting: the file's
// path below the directory is the key, folders joined with dots
// (db/password is db.password), and its contents are the value.
// Kubernetes mounts secrets and config maps this way;
// app.config.import=configtree:/etc/config/ reads one.
//
// A value of one line loses its trailing newline ("\n" or "\r\n"); a value
// of several lines is kept as it is, so that a PEM file reads unchanged
// (Spring's rule). A value is read as written: a placeholder in it is
// not resolved when its own key is read (Spring's binder resolves only
// values that are strings, and a config tree's are files' contents), but
// is when another setting's placeholder names the key.
//
// Kubernetes lays a mount out with links: the files are in a hidden,
// timestamped folder (..2024_01_01_12_00_00.123), ..data links to it, and
// each key links into ..data, file or folder alike:
//
//	db -> ..data/db          (a folder: db/user is db.user)
//	token -> ..data/token
//	..data -> ..2024_01_01_12_00_00.123
//
// So links are followed, to files and to folders, and names starting with
// ".." are not settings but Kubernetes' own bookkeeping, as in Spring.
// Unlike Spring, which follows a link anywhere, a link must stay inside
// the tree: one that leads out of it is refused, naming the link, since
// the tree is what the import names and a link out of it is a mistake or
// an attempt to read another file as a setting. A link that leads back to
// a folder it is in (a loop) is refused too, naming the link. Skipping
// either would silently lose settings.

// readConfigTree reads the config tree at dir (as opened) and returns its
// settings as a source named name; shown is dir as origins show it.
func readConfigTree(dir, shown, name string) (*source, error) {
	// Absolute, so that where a link leads can be compared with it.
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	t := configTree{root: root, shown: shown, src: newSource(name), open: map[string]bool{}}
	t.src.literal = true
	if err := t.folder(dir, "", root); err != nil {
		return nil, err
	}
	return t.src, nil
}

// configTree is the state of one readConfigTree.
type configTree struct {
	root   string // the tree's folder, links resolved
	shown  string
	src    *source
	open   map[string]bool // the folders being read, links resolved: a link to one is a loop
	budget settingsBudget
}

// folder reads the folder at path, whose key prefix is rel (its path in
// the tree, slash-separated) and whose real location is real.
func (t *configTree) folder(path, rel, real string) error {
	t.open[real] = true
	defer delete(t.open, real)
	entries, err := os.ReadDir(path)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "..") {
			continue
		}
		childPath, childRel := filepath.Join(path, e.Name()), e.Name()
		if rel != "" {
			childRel = rel + "/" + e.Name()
		}
		shownPath := filepath.Join(t.shown, filepath.FromSlash(childRel))
		if err := t.budget.add(childRel); err != nil {
			return fmt.Errorf("%s: %w", t.shown, err)
		}
		childReal, err := filepath.EvalSymlinks(childPath)
		if err != nil {
			return fmt.Errorf("%s: %w", shownPath, err)
		}
		if inTree, err := filepath.Rel(t.root, childReal); err != nil || inTree == ".." || strings.HasPrefix(inTree, ".."+string(filepath.Separator)) {
			return fmt.Errorf("%s links to %s, outside the config tree %s; a config tree's links must stay inside it", shownPath, childReal, t.shown)
		}
		info, err := os.Stat(childReal)
		if err != nil {
			return fmt.Errorf("%s: %w", shownPath, err)
		}
		switch {
		case info.IsDir() && t.open[childReal]:
			return fmt.Errorf("%s links to a folder it is in (%s): a loop", shownPath, childReal)
		case info.IsDir():
			if err := t.folder(childPath, childRel, childReal); err != nil {
				return err
			}
		case info.Mode().IsRegular():
			if err := t.file(childPath, childRel, shownPath); err != nil {
				return err
			}
		}
	}
	return nil
}

// file reads the setting in the file at path, whose path in the tree is rel.
func (t *configTree) file(path, rel, shownPath string) error {
	data, err := readSettingsFile(context.Background(), nil, path)
	if err != nil {
		return fmt.Errorf("%s: %w", shownPath, err)
	}
	value := string(data)
	if strings.Count(value, "\n") == 1 {
		if v, crlf := strings.CutSuffix(value, "\r\n"); crlf {
			value = v
		} else {
			value = strings.TrimSuffix(value, "\n")
		}
	}
	t.src.set(strings.ReplaceAll(rel, "/", "."), value, "file ["+shownPath+"]")
	return nil
}
