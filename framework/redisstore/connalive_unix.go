//go:build linux || darwin

package redisstore

import "syscall"

// liveness is what alive needs of a connection, made at its first check
// and kept, as a check comes before every command.
type liveness struct {
	raw       syscall.RawConn       // the socket; nil until the first check
	probe     func(fd uintptr) bool // reads the socket without waiting
	probeByte [1]byte
	probeErr  error
}

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
	if cn.raw == nil {
		sc, ok := cn.net.(syscall.Conn)
		if !ok {
			return true
		}
		raw, err := sc.SyscallConn()
		if err != nil {
			return false
		}
		cn.raw = raw
		cn.probe = func(fd uintptr) bool {
			_, cn.probeErr = syscall.Read(int(fd), cn.probeByte[:])
			return true // done, whatever it read: never wait for data
		}
	}
	if err := cn.raw.Read(cn.probe); err != nil {
		return false
	}
	return cn.probeErr == syscall.EAGAIN
}
