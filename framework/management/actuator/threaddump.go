package actuator

import (
	"bufio"
	"bytes"
	"cmp"
	"path"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"

	"github.com/springport/greeter/framework/dispatch"
)

// /actuator/threaddump shows what every goroutine is doing: as JSON in
// the shape of Spring's thread dump ({"threads":[…]}), which consoles
// read, and, for Accept: text/plain, as the classic Go goroutine dump
// (the goroutine profile at debug=2, a panic's traceback format).
//
// A Go service runs thousands of goroutines where a Java one runs tens
// of threads, most of them parked at the same line (one per connection,
// one per pool worker). So each entry of the JSON dump is one stack with
// one state, standing for every goroutine that shares them: its
// goroutineIds list them, and its threadName names the first and counts
// the others. threadState maps the goroutine's wait reason to the
// nearest java.lang.Thread.State (see threadState); goroutineState keeps
// the wait reason as the runtime gives it.

type threadDump struct {
	Threads []goroutineGroup `json:"threads"`
}

// goroutineGroup is one entry of the dump: the goroutines that share a
// state and a stack.
type goroutineGroup struct {
	ThreadName     string       `json:"threadName"`
	ThreadID       int64        `json:"threadId"` // the first goroutine's
	ThreadState    string       `json:"threadState"`
	GoroutineState string       `json:"goroutineState"`
	GoroutineIDs   []int64      `json:"goroutineIds"`
	StackTrace     []stackFrame `json:"stackTrace"`
	CreatedBy      string       `json:"createdBy,omitempty"` // the function that started them
	// Spring's fields for the locks a thread holds, which consoles
	// expect; a goroutine holds no lock the runtime could name.
	LockedMonitors      []struct{} `json:"lockedMonitors"`
	LockedSynchronizers []struct{} `json:"lockedSynchronizers"`
}

// stackFrame is one call, in the shape of Java's StackTraceElement: the
// class is the package with the receiver type, if any.
type stackFrame struct {
	ClassName    string `json:"className"`
	MethodName   string `json:"methodName"`
	FileName     string `json:"fileName"`
	LineNumber   int    `json:"lineNumber"`
	NativeMethod bool   `json:"nativeMethod"`
}

// goroutineDump is the goroutine profile at debug=2.
func goroutineDump() []byte {
	var buf bytes.Buffer
	pprof.Lookup("goroutine").WriteTo(&buf, 2) // a bytes.Buffer does not fail
	return buf.Bytes()
}

func handleThreadDumpText(*dispatch.Request) (string, error) { return string(goroutineDump()), nil }

func handleThreadDump(*dispatch.Request) (threadDump, error) {
	return threadDump{Threads: groupGoroutines(goroutineDump())}, nil
}

func threadDumpRoutes(base string) []dispatch.Route {
	return []dispatch.Route{
		{Method: "GET", Pattern: base + "/threaddump", Produces: jsonTypes, Handler: dispatch.Returns(handleThreadDump)},
		{Method: "GET", Pattern: base + "/threaddump", Produces: []string{"text/plain"}, Handler: dispatch.Returns(handleThreadDumpText)},
	}
}

// groupGoroutines parses a debug=2 goroutine dump and groups its
// goroutines by state and stack, the largest groups first.
func groupGoroutines(dump []byte) []goroutineGroup {
	var groups []goroutineGroup
	byKey := map[string]int{}
	add := func(id int64, state string, frames []stackFrame, createdBy string) {
		key := state + "\n" + createdBy + "\n" + stackKey(frames)
		if i, ok := byKey[key]; ok {
			groups[i].GoroutineIDs = append(groups[i].GoroutineIDs, id)
			return
		}
		byKey[key] = len(groups)
		groups = append(groups, goroutineGroup{ThreadID: id, ThreadState: threadState(state), GoroutineState: state,
			GoroutineIDs: []int64{id}, StackTrace: frames, CreatedBy: createdBy,
			LockedMonitors: []struct{}{}, LockedSynchronizers: []struct{}{}})
	}

	sc := bufio.NewScanner(bytes.NewReader(dump))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var (
		inGoroutine bool
		id          int64
		state       string
		frames      []stackFrame
		createdBy   string
		function    string // a function line, waiting for its file:line
	)
	finish := func() {
		if inGoroutine {
			add(id, state, frames, createdBy)
		}
		inGoroutine, frames, createdBy, function = false, nil, "", ""
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "goroutine "):
			finish()
			id, state, inGoroutine = parseGoroutineHeader(line)
		case !inGoroutine || line == "":
			finish()
		case strings.HasPrefix(line, "\t"):
			if function == "" {
				continue
			}
			file, lineNo := parseFileLine(strings.TrimSpace(line))
			if strings.HasPrefix(function, "created by ") {
				createdBy = strings.TrimPrefix(function, "created by ")
				if i := strings.Index(createdBy, " in goroutine "); i >= 0 {
					createdBy = createdBy[:i] // the creator's id differs for each
				}
			} else {
				class, method := splitFunction(function)
				frames = append(frames, stackFrame{ClassName: class, MethodName: method, FileName: path.Base(file), LineNumber: lineNo})
			}
			function = ""
		default:
			function = stripArguments(line)
		}
	}
	finish()

	for i := range groups {
		g := &groups[i]
		slices.Sort(g.GoroutineIDs)
		g.ThreadID = g.GoroutineIDs[0]
		g.ThreadName = "goroutine " + strconv.FormatInt(g.ThreadID, 10)
		if n := len(g.GoroutineIDs); n > 1 {
			g.ThreadName += " and " + strconv.Itoa(n-1) + " more with this stack"
		}
	}
	slices.SortStableFunc(groups, func(a, b goroutineGroup) int {
		return cmp.Or(cmp.Compare(len(b.GoroutineIDs), len(a.GoroutineIDs)), cmp.Compare(a.ThreadID, b.ThreadID))
	})
	return groups
}

// parseGoroutineHeader reads "goroutine 18 [chan receive, 2 minutes]:".
// How long a goroutine has waited, and whether it is locked to its
// thread, are left out of its state, so that goroutines parked at one
// line for different times fall into one group.
func parseGoroutineHeader(line string) (id int64, state string, ok bool) {
	rest := strings.TrimPrefix(line, "goroutine ")
	num, rest, _ := strings.Cut(rest, " ")
	id, err := strconv.ParseInt(num, 10, 64)
	open, end := strings.IndexByte(rest, '['), strings.LastIndexByte(rest, ']')
	if err != nil || open < 0 || end < open {
		return 0, "", false
	}
	var kept []string
	for part := range strings.SplitSeq(rest[open+1:end], ", ") {
		if part == "locked to thread" || strings.HasSuffix(part, " minutes") || strings.HasSuffix(part, " minute") {
			continue
		}
		kept = append(kept, part)
	}
	return id, strings.Join(kept, ", "), true
}

// threadState maps a goroutine's wait reason to java.lang.Thread.State:
//
//	RUNNABLE       running, runnable, in a system call or waiting for
//	               network I/O (a Java thread in a socket read is
//	               RUNNABLE too)
//	BLOCKED        waiting for a lock: sync.Mutex, sync.RWMutex, or the
//	               runtime semaphore behind them
//	TIMED_WAITING  sleeping (time.Sleep), which ends on its own
//	WAITING        everything else: parked on a channel, a select, a
//	               sync.Cond or WaitGroup, or idle in the runtime
//
// Java's NEW and TERMINATED have no goroutine counterpart in a dump.
func threadState(state string) string {
	reason, _, _ := strings.Cut(state, ", ")
	switch {
	case reason == "running" || reason == "runnable" || reason == "syscall" || reason == "IO wait":
		return "RUNNABLE"
	case strings.HasPrefix(reason, "sync.Mutex") || strings.HasPrefix(reason, "sync.RWMutex") || reason == "semacquire":
		return "BLOCKED"
	case reason == "sleep":
		return "TIMED_WAITING"
	}
	return "WAITING"
}

// stripArguments turns "net/http.(*conn).serve(0xc000123450, {…})" into
// "net/http.(*conn).serve".
func stripArguments(line string) string {
	if strings.HasSuffix(line, ")") {
		if i := strings.LastIndexByte(line, '('); i > 0 {
			return line[:i]
		}
	}
	return line
}

// splitFunction splits "net/http.(*conn).serve" into the "class"
// net/http.(*conn) and the "method" serve, as Java names a frame.
func splitFunction(fn string) (class, method string) {
	slash := strings.LastIndexByte(fn, '/')
	if dot := strings.LastIndexByte(fn, '.'); dot > slash {
		return fn[:dot], fn[dot+1:]
	}
	return "", fn
}

// parseFileLine reads "/src/net/http/server.go:2102 +0x4e5".
func parseFileLine(s string) (string, int) {
	s, _, _ = strings.Cut(s, " ")
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		n, _ := strconv.Atoi(s[i+1:])
		return s[:i], n
	}
	return s, 0
}

// stackKey is the identity of a stack for grouping.
func stackKey(frames []stackFrame) string {
	var b strings.Builder
	for _, f := range frames {
		b.WriteString(f.ClassName + "." + f.MethodName + ":" + f.FileName + ":" + strconv.Itoa(f.LineNumber) + "\n")
	}
	return b.String()
}
