package metrics

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// The process metrics, read from /proc as client_golang 1.25's
// collectors.NewProcessCollector read them (through procfs): CPU time,
// memory, file descriptors and their limits, start time, and the
// network traffic of the process's network namespace. Where /proc cannot
// be read (another OS, a /proc not mounted), the families it would give
// are left out, as client_golang left them out without ReportErrors.

// userHZ is the unit of the times of /proc/self/stat, as procfs assumes.
const userHZ = 100

func collectProcess() []family {
	var all []family
	if st, err := readProcStat(); err == nil {
		all = append(all,
			single("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", counterType,
				float64(st.utime+st.stime)/userHZ),
			single("process_virtual_memory_bytes", "Virtual memory size in bytes.", gaugeType, float64(st.vsize)),
			single("process_resident_memory_bytes", "Resident memory size in bytes.", gaugeType, float64(st.rss*uint64(os.Getpagesize()))))
		if boot, err := bootTime(); err == nil {
			all = append(all, single("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", gaugeType,
				float64(boot)+float64(st.starttime)/userHZ))
		}
	}
	if n, err := openFDs(); err == nil {
		all = append(all, single("process_open_fds", "Number of open file descriptors.", gaugeType, float64(n)))
	}
	if files, addressSpace, err := limits(); err == nil {
		all = append(all,
			single("process_max_fds", "Maximum number of open file descriptors.", gaugeType, float64(files)),
			single("process_virtual_memory_max_bytes", "Maximum amount of virtual memory available in bytes.", gaugeType, float64(addressSpace)))
	}
	if in, out, err := ipOctets(); err == nil {
		all = append(all,
			single("process_network_receive_bytes_total", "Number of bytes received by the process over the network.", counterType, in),
			single("process_network_transmit_bytes_total", "Number of bytes sent by the process over the network.", counterType, out))
	}
	return all
}

// procStat is what the process metrics read of /proc/self/stat.
type procStat struct {
	utime, stime, starttime, vsize, rss uint64
}

func readProcStat() (procStat, error) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return procStat{}, err
	}
	// The command name, in parentheses, may hold spaces and parentheses:
	// the fields start after the last ')', with the state, field 3.
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(fields) < 22 {
		return procStat{}, strconv.ErrSyntax
	}
	var st procStat
	for _, f := range []struct {
		to    *uint64
		field int // as proc(5) numbers them
	}{{&st.utime, 14}, {&st.stime, 15}, {&st.starttime, 22}, {&st.vsize, 23}, {&st.rss, 24}} {
		if *f.to, err = strconv.ParseUint(fields[f.field-3], 10, 64); err != nil {
			return procStat{}, err
		}
	}
	return st, nil
}

// bootTime is btime of /proc/stat: when the system booted, in seconds
// since the epoch, which a process's start time counts from.
func bootTime() (uint64, error) {
	f, err := os.Open("/proc/stat")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		if v, ok := strings.CutPrefix(lines.Text(), "btime "); ok {
			return strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		}
	}
	if err := lines.Err(); err != nil {
		return 0, err
	}
	return 0, os.ErrNotExist
}

// openFDs counts the process's open files. Linux 6.2 and later give the
// count as the size of /proc/self/fd, which saves listing it.
func openFDs() (int, error) {
	if fi, err := os.Stat("/proc/self/fd"); err == nil && fi.Size() > 0 {
		return int(fi.Size()), nil
	}
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		return 0, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	return len(names), err
}

// limits returns the soft limits of /proc/self/limits on open files and
// on address space, "unlimited" being the largest uint64.
func limits() (files, addressSpace uint64, err error) {
	b, err := os.ReadFile("/proc/self/limits")
	if err != nil {
		return 0, 0, err
	}
	soft := func(name string) (uint64, error) {
		for line := range strings.Lines(string(b)) {
			if rest, ok := strings.CutPrefix(line, name+"  "); ok {
				v := strings.Fields(rest)
				if len(v) == 0 {
					break
				}
				if v[0] == "unlimited" {
					return 1<<64 - 1, nil
				}
				return strconv.ParseUint(v[0], 10, 64)
			}
		}
		return 0, os.ErrNotExist
	}
	if files, err = soft("Max open files"); err != nil {
		return 0, 0, err
	}
	addressSpace, err = soft("Max address space")
	return files, addressSpace, err
}

// ipOctets returns InOctets and OutOctets of the IpExt lines of
// /proc/self/net/netstat: the bytes the process's network namespace
// received and sent, which client_golang reports as the process's. A
// kernel that lacks one counts it 0, as there.
func ipOctets() (in, out float64, err error) {
	b, err := os.ReadFile("/proc/self/net/netstat")
	if err != nil {
		return 0, 0, err
	}
	var names []string
	for line := range strings.Lines(string(b)) {
		fields, ok := strings.CutPrefix(strings.TrimSpace(line), "IpExt:")
		if !ok {
			continue
		}
		if names == nil { // the first IpExt line names the fields, the second holds them
			names = strings.Fields(fields)
			continue
		}
		for i, v := range strings.Fields(fields) {
			if i >= len(names) {
				break
			}
			var to *float64
			switch names[i] {
			case "InOctets":
				to = &in
			case "OutOctets":
				to = &out
			default:
				continue
			}
			if *to, err = strconv.ParseFloat(v, 64); err != nil {
				return 0, 0, err
			}
		}
		break
	}
	return in, out, nil
}
