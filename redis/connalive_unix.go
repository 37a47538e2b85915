//go:build linux || darwin

package redis

import "syscall"

// alive reports whether an idle connection is still open: the server may
// have closed it (a restart, its timeout setting) while it sat in the
// pool. It reads from the socket without waiting, which Go's Read cannot
// do (with a deadline already past it returns without looking): nothing
// to read is as it should be; the end of the stream, or bytes that no
// command asked for, make the connection useless.
//
// A TLS connection is taken as it is: its server may send records of its
// own accord (session tickets), so bytes waiting say nothing; if it was
// closed, its next command fails.
func (cn *conn) alive() bool {
	sc, ok := cn.net.(syscall.Conn)
	if !ok {
		return true
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	var readErr error
	err = raw.Read(func(fd uintptr) bool {
		_, readErr = syscall.Read(int(fd), cn.probe[:])
		return true // done, whatever it read: never wait for data
	})
	return err == nil && readErr == syscall.EAGAIN
}
