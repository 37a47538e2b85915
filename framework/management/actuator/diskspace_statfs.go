//go:build linux || darwin

package actuator

import "syscall"

// diskUsage returns the size of the file system that holds path, and the
// bytes an unprivileged process may still write there (Java's usable
// space: blocks free to non-root users).
func diskUsage(path string) (total, free uint64, err error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 0, 0, err
	}
	return st.Blocks * uint64(st.Bsize), st.Bavail * uint64(st.Bsize), nil
}
