package metrics

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"syscall"
	"time"
)

// The readings of process.go on Linux, from the process's own counters
// and /proc, into buffers on the stack: a scrape reads a few hundred
// bytes, and allocates only the paths' and the numbers' conversions for
// syscall and strconv (five small allocations on Linux amd64).

// readCPU samples the process's CPU time (getrusage, in microseconds,
// all threads) and the system's busy and total time (/proc/stat's first
// line, the sum of every processor, in clock ticks).
func readCPU() (cpuSample, bool) {
	s := cpuSample{at: time.Now()}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return cpuSample{}, false
	}
	s.process = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	var buf [512]byte
	n, ok := readFile("/proc/stat", buf[:])
	if !ok {
		return cpuSample{}, false
	}
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	if s.busy, s.total, ok = systemTicks(line); !ok {
		return cpuSample{}, false
	}
	return s, true
}

// systemTicks reads /proc/stat's first line, "cpu  user nice system idle
// iowait irq softirq steal guest guest_nice": the ticks busy, as HotSpot's
// OperatingSystemMXBean counts them (user and nice, system, irq and
// softirq; not idle, nor waiting for I/O, nor steal, the time a
// hypervisor gave another machine), and all of them.
func systemTicks(line []byte) (busy, total uint64, ok bool) {
	fields := bytes.Fields(line)
	if len(fields) < 9 || string(fields[0]) != "cpu" {
		return 0, 0, false
	}
	var ticks [8]uint64 // guest and guest_nice are in user and nice already
	for i := range ticks {
		v, err := strconv.ParseUint(string(fields[i+1]), 10, 64)
		if err != nil {
			return 0, 0, false
		}
		ticks[i] = v
		total += v
	}
	return ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6], total, true
}

// loadAverage1m is /proc/loadavg's first field.
func loadAverage1m() (float64, bool) {
	var buf [128]byte
	n, ok := readFile("/proc/loadavg", buf[:])
	if !ok {
		return 0, false
	}
	first, _, _ := bytes.Cut(buf[:n], []byte(" "))
	v, err := strconv.ParseFloat(string(first), 64)
	return v, err == nil
}

// openFiles counts the entries of /proc/self/fd, less the one open to
// read it, as the JVM counts its open file descriptors. client_golang's
// process_open_fds counts that one too.
func openFiles() (int, bool) {
	fd, err := syscall.Open("/proc/self/fd", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	defer syscall.Close(fd)
	var buf [8192]byte
	n := 0
	for {
		m, err := syscall.ReadDirent(fd, buf[:])
		if err != nil {
			return 0, false
		}
		if m == 0 {
			return n - 1, true
		}
		// linux_dirent64: d_ino (8 bytes), d_off (8), d_reclen (2),
		// d_type (1), d_name: a descriptor's number, or . and ..
		for b := buf[:m]; len(b) >= 20; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 20 || reclen > len(b) {
				return 0, false
			}
			if b[19] != '.' {
				n++
			}
			b = b[reclen:]
		}
	}
}

// maxFiles is the process's limit of open files (RLIMIT_NOFILE's soft
// limit, which Go raises to the hard one at start, as the JVM does).
func maxFiles() (uint64, bool) {
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl) != nil {
		return 0, false
	}
	return rl.Cur, true
}

// readFile reads the start of a small file (of /proc) into buf.
func readFile(path string, buf []byte) (int, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	defer syscall.Close(fd)
	n, err := syscall.Read(fd, buf)
	return n, err == nil && n > 0
}
