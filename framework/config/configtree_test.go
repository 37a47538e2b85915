package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kubernetesTree lays a config tree out as Kubernetes mounts a secret or
// a config map, and returns its folder: the files in a timestamped
// folder, ..data linking to it, and each key a link into ..data, a folder
// (db) as well as files.
func kubernetesTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	data := filepath.Join(dir, "..2024_01_01_12_00_00.123")
	for name, content := range map[string]string{"db/user": "app\n", "db/password": "s3cret", "token": "abc\n", "cert.pem": "-----BEGIN-----\nAAAA\n-----END-----\n"} {
		path := filepath.Join(data, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"..data": "..2024_01_01_12_00_00.123", "db": "..data/db", "token": "..data/token", "cert.pem": "..data/cert.pem"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	return dir
}

func TestConfigTreeAsKubernetesMountsIt(t *testing.T) {
	t.Parallel()
	src, err := readConfigTree(kubernetesTree(t), "mount", "tree")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"db.user": "app", "db.password": "s3cret", "token": "abc",
		// Several lines keep their last newline, as in Spring.
		"cert.pem": "-----BEGIN-----\nAAAA\n-----END-----\n",
	}
	if len(src.keys) != len(want) {
		t.Errorf("keys %q, want only %d: the ..-folders are not settings", src.keys, len(want))
	}
	for k, v := range want {
		if got := src.entries[k]; got.Value != v {
			t.Errorf("%s:\ngot  %q\nwant %q", k, got.Value, v)
		}
	}
	if got, want := src.entries["db.user"].Origin, "file ["+filepath.Join("mount", "db", "user")+"]"; got != want {
		t.Errorf("origin of db.user:\ngot  %s\nwant %s", got, want)
	}
}

func TestConfigTreeRefusedLinks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		lay  func(t *testing.T, dir string)
		want []string
	}{
		{"a file link out of the tree", func(t *testing.T, dir string) {
			outside := filepath.Join(t.TempDir(), "passwd")
			os.WriteFile(outside, []byte("root"), 0o600)
			symlink(t, outside, filepath.Join(dir, "stolen"))
		}, []string{filepath.Join("mount", "stolen"), "outside the config tree"}},
		{"a folder link out of the tree", func(t *testing.T, dir string) {
			symlink(t, "..", filepath.Join(dir, "up"))
		}, []string{filepath.Join("mount", "up"), "outside the config tree"}},
		{"a loop", func(t *testing.T, dir string) {
			os.Mkdir(filepath.Join(dir, "a"), 0o755)
			symlink(t, "..", filepath.Join(dir, "a", "again"))
		}, []string{filepath.Join("mount", "a", "again"), "loop"}},
		{"a link to itself", func(t *testing.T, dir string) {
			symlink(t, "self", filepath.Join(dir, "self"))
		}, []string{filepath.Join("mount", "self")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.lay(t, dir)
			_, err := readConfigTree(dir, "mount", "tree")
			for _, w := range tt.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("got %v, want an error that says %q", err, w)
				}
			}
		})
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
}

func TestConfigTreeFileTooLarge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big"), make([]byte, maxSettingsFileBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := readConfigTree(dir, "mount", "tree")
	if err == nil || !strings.Contains(err.Error(), filepath.Join("mount", "big")) || !strings.Contains(err.Error(), "8 MiB") {
		t.Errorf("got %v, want a refusal naming mount/big and the limit", err)
	}
}
