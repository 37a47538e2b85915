package config

import (
	"os"
	"os/user"
	"path/filepath"
)

// The JVM sets system properties that Spring users' files refer to
// (halo's ${user.home}/.halo2): Spring resolves them from its
// systemProperties source. Here, a placeholder whose name no source sets
// is answered by Go's equivalent, when it names one of these.
const (
	propUserHome = "user.home"      // os.UserHomeDir
	propUserDir  = "user.dir"       // the working directory
	propUserName = "user.name"      // the user running the process
	propTmpDir   = "java.io.tmpdir" // os.TempDir
)

// systemProperty returns the value of the JVM's system property name, as
// Go finds it, when it is one of those above. dir is the working
// directory the settings are read from ("" for the process's).
func systemProperty(name, dir string) (string, bool) {
	switch name {
	case propUserHome:
		home, err := os.UserHomeDir()
		return home, err == nil && home != ""
	case propUserDir:
		if dir != "" {
			abs, err := filepath.Abs(dir)
			return abs, err == nil
		}
		wd, err := os.Getwd()
		return wd, err == nil
	case propUserName:
		if u, err := user.Current(); err == nil && u.Username != "" {
			return u.Username, true
		}
		for _, v := range []string{"USER", "USERNAME", "LOGNAME"} {
			if s := os.Getenv(v); s != "" {
				return s, true
			}
		}
		return "", false
	case propTmpDir:
		return os.TempDir(), true
	}
	return "", false
}
