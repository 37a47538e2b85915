package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/springport/greeter/framework/testing/internal/testproc"

	"github.com/springport/greeter/framework/testing/polltest"
)

// readyTimeout bounds each wait for a server to come up, promote or stop,
// and each run of initdb or pg_basebackup. A server is ready in about a
// second on an idle machine; the margin is for a loaded CI machine running
// the race detector.
const readyTimeout = 60 * time.Second

// Server is one postgres process that the test started.
type Server struct {
	URL  string // postgres://postgres@127.0.0.1:PORT/postgres, no password
	Port int
	Data string // its data directory

	name   string // for messages: "primary", "standby 1 of primary"
	dir    string // Data and the log file
	cmd    *exec.Cmd
	log    string
	exited chan struct{} // closed once the process has exited and been reaped

	standbys int // how many Standby has made of this server
}

// startAttempts is how many times a server is started on new ports when
// another process took the one it was given.
const startAttempts = 3

// Start initialises a database cluster (initdb, with the superuser
// postgres trusted on loopback, for clients and replication) and starts a
// server on it. fsync is off: the tests kill processes, never the
// machine, and the kernel keeps what a killed process wrote.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{name: "primary", dir: serverDir(t)}
	s.Data = filepath.Join(s.dir, "data")
	run(t, "initdb", "--pgdata="+s.Data, "--username=postgres", "--auth=trust",
		"--locale=C", "--encoding=UTF8", "--no-sync")
	s.start(t, 0)
	return s
}

// Standby copies the server's data with pg_basebackup (with the
// recovery settings that make a copy a standby streaming from this
// server) and starts a server on it, in hot standby: it answers reads and
// refuses writes until Promote.
func (s *Server) Standby(t testing.TB) *Server {
	t.Helper()
	s.standbys++
	st := &Server{name: fmt.Sprintf("standby %d of %s", s.standbys, s.name), dir: serverDir(t)}
	st.Data = filepath.Join(st.dir, "data")
	run(t, "pg_basebackup", "--pgdata="+st.Data, "--host=127.0.0.1", "--port="+strconv.Itoa(s.Port),
		"--username=postgres", "--write-recovery-conf", "--wal-method=stream", "--checkpoint=fast", "--no-sync")
	st.start(t, 0)
	return st
}

// Promote makes a standby a primary (pg_ctl promote) and waits until it
// takes writes.
func (s *Server) Promote(t testing.TB) {
	t.Helper()
	run(t, "pg_ctl", "promote", "--pgdata="+s.Data, "--wait", "--timeout="+strconv.Itoa(int(readyTimeout.Seconds())))
	s.eventually(t, "promoted", func(conn *pgx.Conn) error {
		var recovering bool
		if err := conn.QueryRow(context.Background(), "SELECT pg_is_in_recovery()").Scan(&recovering); err != nil {
			return err
		}
		if recovering {
			return errors.New("still in recovery")
		}
		return nil
	})
}

// Kill ends the server at once, as a crash of its machine or container
// does: SIGKILL to the postmaster and to every process it started, so
// that its clients' connections break and nothing is shut down cleanly.
// It returns once none of them is left: PostgreSQL refuses to start on
// data whose shared memory a process still holds. (Its children leave the
// postmaster's process group, each calling setsid, so they are found as
// its children, with the postmaster stopped so that it forks no more.)
func (s *Server) Kill(t testing.TB) {
	t.Helper()
	pid := s.cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil && !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("stopping %s: %v", s.name, err)
	}
	children := childrenOf(pid)
	for _, c := range children {
		syscall.Kill(c, syscall.SIGKILL)
	}
	s.signalAndWait(t, syscall.SIGKILL)
	if !polltest.Poll(readyTimeout, func() bool { return !slices.ContainsFunc(children, running) }) {
		t.Fatalf("processes of %s still run %v after SIGKILL", s.name, readyTimeout)
	}
}

// childrenOf lists the processes whose parent is pid, from /proc; none
// where there is no /proc.
func childrenOf(pid int) []int {
	var children []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range stats {
		if fields := statFields(path); len(fields) >= 2 && fields[1] == strconv.Itoa(pid) {
			if child, err := strconv.Atoi(filepath.Base(filepath.Dir(path))); err == nil {
				children = append(children, child)
			}
		}
	}
	return children
}

// running reports whether process pid still runs: it exists and is not a
// zombie (which has let go of its shared memory).
func running(pid int) bool {
	fields := statFields("/proc/" + strconv.Itoa(pid) + "/stat")
	return len(fields) > 0 && fields[0] != "Z"
}

// statFields are the fields of a /proc/<pid>/stat file after the
// command's name: state, parent, group...; none when it cannot be read.
func statFields(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	// pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
	return strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
}

// Stop shuts the server down as an operator does (SIGINT, PostgreSQL's
// fast shutdown: clients are disconnected, the data is checkpointed).
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	s.signalAndWait(t, syscall.SIGINT)
}

// Restart starts the server again on its data and port, after Kill or
// Stop, as a supervisor does.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	select {
	case <-s.exited:
	default:
		t.Fatalf("%s is still running: Kill or Stop it before Restart", s.name)
	}
	s.start(t, s.Port)
}

// start runs postgres on the data directory, on port or, when it is 0, on
// a free port, and waits until it answers as this server.
func (s *Server) start(t testing.TB, port int) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		p := port
		if p == 0 {
			p = testproc.FreePorts(t, 1)[0]
		}
		s.Port = p
		s.URL = "postgres://postgres@127.0.0.1:" + strconv.Itoa(p) + "/postgres"
		s.launch(t)
		err := s.waitReady()
		if err == nil {
			return
		}
		out := s.output()
		if port == 0 && attempt < startAttempts && strings.Contains(out, "could not bind") {
			t.Logf("%s: port %d was taken before postgres bound it; trying another", s.name, p)
			s.signalAndWait(t, syscall.SIGQUIT)
			continue
		}
		t.Fatalf("%s did not start: %v\npostgres's output:\n%s", s.name, err, out)
	}
}

// launch starts postgres, its output appended to a log file beside the
// data, and registers its end with the test.
func (s *Server) launch(t testing.TB) {
	t.Helper()
	s.log = filepath.Join(s.dir, "postgres.log")
	out, err := os.OpenFile(s.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	s.cmd = Command(t, "postgres", "-D", s.Data, "-p", strconv.Itoa(s.Port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off")
	s.cmd.Dir = s.dir
	s.cmd.Stdout, s.cmd.Stderr = out, out
	if err := s.cmd.Start(); err != nil {
		out.Close()
		t.Fatalf("starting %s (postgres -D %s): %v", s.name, s.Data, err)
	}
	exited := make(chan struct{})
	s.exited = exited
	cmd := s.cmd
	go func() {
		cmd.Wait()
		out.Close()
		close(exited)
	}()
	// Registered after serverDir's removal, so it runs before it.
	// SIGQUIT is PostgreSQL's immediate shutdown, which ends the
	// postmaster's children too.
	t.Cleanup(func() {
		select {
		case <-exited:
			return
		default:
		}
		cmd.Process.Signal(syscall.SIGQUIT)
		<-exited
	})
}

// signalAndWait sends sig to the postmaster and waits until it exits.
func (s *Server) signalAndWait(t testing.TB, sig syscall.Signal) {
	t.Helper()
	select {
	case <-s.exited:
		return
	default:
	}
	// ErrProcessDone: it exited since the look above.
	if err := s.cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Fatalf("signalling %s: %v", s.name, err)
	}
	select {
	case <-s.exited:
	case <-time.After(readyTimeout):
		t.Fatalf("%s did not exit within %v of %v", s.name, readyTimeout, sig)
	}
}

// waitReady waits until the server accepts connections, and checks that
// the one answering is this server (its data directory), not another
// process that holds the port.
func (s *Server) waitReady() error {
	exited := false
	err := polltest.Check(readyTimeout, func() error {
		select {
		case <-s.exited:
			exited = true
			return nil // no use asking again
		default:
		}
		return s.try(func(conn *pgx.Conn) error {
			var data string
			if err := conn.QueryRow(context.Background(), "SHOW data_directory").Scan(&data); err != nil {
				return err
			}
			if data != s.Data {
				return fmt.Errorf("127.0.0.1:%d is answered by the server of %s, not %s", s.Port, data, s.Data)
			}
			return nil
		})
	})
	switch {
	case exited:
		return fmt.Errorf("postgres exited: %v", s.cmd.ProcessState)
	case err != nil:
		return fmt.Errorf("not ready on 127.0.0.1:%d: %v", s.Port, err)
	}
	return nil
}

// eventually calls check on a new connection until it returns nil,
// failing the test when readyTimeout passes first.
func (s *Server) eventually(t testing.TB, what string, check func(*pgx.Conn) error) {
	t.Helper()
	polltest.Until(t, readyTimeout, s.name+" "+what, func() error { return s.try(check) })
}

// try connects to the server and calls check with the connection.
func (s *Server) try(check func(*pgx.Conn) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	return check(conn)
}

// output is what the server wrote, for failure messages.
func (s *Server) output() string {
	b, err := os.ReadFile(s.log)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
