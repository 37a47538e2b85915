//go:build !(linux || darwin)

package redis

// alive takes an idle connection as it is on systems where the socket is
// not read here without waiting (see connalive_unix.go): one that the
// server closed fails its next command.
func (cn *conn) alive() bool { return true }
