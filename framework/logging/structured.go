package logging

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// The structured formats (ecs.go, logstash.go, gelf.go) share this
// handler: it gathers a line's parts (time, level, message, logger, its
// context and its error), the format puts them in a tree of fields in
// its order and names, and the tree is written as one JSON object on one
// line, through logging.structured.json.* (include, exclude, rename).

// threadName is the process.thread.name, thread_name and
// _process_thread_name of every line: Go's goroutines have no names, and
// Spring's lines name the thread; a pipeline that reads the field finds it.
const threadName = "main"

// structuredFormat is what a structured handler and the handlers derived
// from it (WithAttrs, a logger's) share.
type structuredFormat struct {
	mu    sync.Mutex // one Write per line, whole
	w     io.Writer
	level slog.Leveler
	trace func(context.Context) (string, string, bool)
	pid   int
	s     Structured
	// build puts a line's fields in root, in the format's order.
	build func(f *structuredFormat, l *line, root *field)
	// filtering: include, exclude or rename is set, so each field's path
	// is worked out.
	filtering        bool
	include, exclude map[string]bool
	includeAncestors map[string]bool // the objects that hold an included path
	renames          map[string]string
	// scalarsOnly writes objects and bools as strings: GELF's fields
	// are strings or numbers.
	scalarsOnly bool
}

func newStructuredHandler(format string, w io.Writer, level slog.Leveler, opts HandlerOptions) *structuredHandler {
	f := &structuredFormat{w: w, level: level, trace: opts.Trace, pid: os.Getpid(), s: opts.Structured}
	switch format {
	case FormatECS:
		f.build = buildECS
	case FormatLogstash:
		f.build = buildLogstash
	case FormatGELF:
		f.build, f.scalarsOnly = buildGELF, true
	}
	m := opts.Structured.JSON
	f.filtering = len(m.Include) > 0 || len(m.Exclude) > 0 || len(m.Rename) > 0
	f.include, f.exclude, f.includeAncestors = set(m.Include), set(m.Exclude), map[string]bool{}
	for p := range f.include {
		for i := strings.LastIndexByte(p, '.'); i > 0; i = strings.LastIndexByte(p[:i], '.') {
			f.includeAncestors[p[:i]] = true
		}
	}
	f.renames = m.Rename
	return &structuredHandler{f: f}
}

func set(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" {
			m[s] = true
		}
	}
	return m
}

// structuredHandler is a structured format's slog.Handler.
type structuredHandler struct {
	f      *structuredFormat
	logger string
	attrs  []scopedAttr // WithAttrs', in order
	groups []string     // WithGroup's, which the record's attributes are in
}

// scopedAttr is an attribute with the groups it was added in.
type scopedAttr struct {
	groups []string
	attr   slog.Attr
}

func (h *structuredHandler) Enabled(_ context.Context, l slog.Level) bool {
	return l >= h.f.level.Level()
}

func (h *structuredHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.attrs = slices.Clip(c.attrs)
	for _, a := range attrs {
		c.attrs = append(c.attrs, scopedAttr{groups: h.groups, attr: a})
	}
	return &c
}

func (h *structuredHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.groups = append(slices.Clip(h.groups), name)
	return &c
}

func (h *structuredHandler) withLogger(name string) slog.Handler {
	c := *h
	c.logger = name
	return &c
}

// line is a record's parts, gathered; pooled with its buffer.
type line struct {
	time   time.Time
	level  slog.Level
	msg    string
	logger string
	pairs  []pair
	err    slog.Value // the ErrorKey attribute's, when hasErr
	hasErr bool
	root   field
	buf    []byte
}

// pair is one of a line's context: a trace id or an attribute, by the
// path of its groups and key.
type pair struct {
	path  []string
	value slog.Value
}

var lines = sync.Pool{New: func() any { return &line{buf: make([]byte, 0, 1024)} }}

func (h *structuredHandler) Handle(ctx context.Context, r slog.Record) error {
	l := lines.Get().(*line)
	defer func() {
		if cap(l.buf) <= 64<<10 {
			lines.Put(l)
		}
	}()
	*l = line{time: r.Time, level: r.Level, msg: r.Message, logger: h.logger, pairs: l.pairs[:0],
		root: field{kids: l.root.kids[:0]}, buf: l.buf[:0]}
	f := h.f
	if !f.s.JSON.OmitContext && f.trace != nil {
		if traceID, spanID, ok := f.trace(ctx); ok {
			// Where Micrometer Tracing puts them: the MDC.
			l.pairs = append(l.pairs, pair{path: []string{"traceId"}, value: slog.StringValue(traceID)},
				pair{path: []string{"spanId"}, value: slog.StringValue(spanID)})
		}
	}
	for _, a := range h.attrs {
		l.add(f, a.groups, a.attr)
	}
	r.Attrs(func(a slog.Attr) bool {
		l.add(f, h.groups, a)
		return true
	})
	f.build(f, l, &l.root)
	l.buf = f.appendObject(l.buf, &l.root, "")
	l.buf = append(l.buf, '\n')
	f.mu.Lock()
	defer f.mu.Unlock()
	_, err := f.w.Write(l.buf)
	return err
}

// add adds the attribute a, in groups, to the line: the error, or one of
// its context, as slog's handlers would (an empty key, or an empty group,
// is nothing; a group without a key is inlined).
func (l *line) add(f *structuredFormat, groups []string, a slog.Attr) {
	a.Value = a.Value.Resolve()
	if a.Value.Kind() == slog.KindGroup {
		attrs := a.Value.Group()
		if len(attrs) == 0 {
			return
		}
		if a.Key != "" {
			groups = append(slices.Clip(groups), a.Key)
		}
		for _, g := range attrs {
			l.add(f, groups, g)
		}
		return
	}
	if a.Key == "" {
		return
	}
	if len(groups) == 0 && a.Key == ErrorKey {
		l.err, l.hasErr = a.Value, true
		return
	}
	if f.s.JSON.OmitContext {
		return
	}
	key := a.Key
	if a.Value.Kind() == slog.KindDuration {
		key, a.Value = msKey(key), slog.Float64Value(milliseconds(a.Value.Duration()))
	}
	l.pairs = append(l.pairs, pair{path: append(slices.Clip(groups), key), value: a.Value})
}

// errorParts are the type, message and stack trace of the line's error.
// Go's errors have no frames: the trace is the chain of errors each
// wraps, one a line, as Java writes an exception's causes, cut as
// logging.structured.json.stacktrace.* says.
func (f *structuredFormat) errorParts(l *line) (typ, msg, trace string) {
	err, ok := l.err.Any().(error)
	if l.err.Kind() != slog.KindAny || !ok || err == nil {
		msg = l.err.String()
		return "", msg, msg
	}
	st := f.s.JSON.StackTrace
	var chain []string
	for e := err; e != nil && (st.MaxDepth == 0 || len(chain) < st.MaxDepth); e = errors.Unwrap(e) {
		chain = append(chain, fmt.Sprintf("%T: %s", e, e.Error()))
	}
	joiner := "\nCaused by: "
	if st.RootFirst {
		slices.Reverse(chain)
		joiner = "\nWrapped by: "
	}
	trace = strings.Join(chain, joiner)
	if st.MaxLength > 0 && len(trace) > st.MaxLength {
		trace = strings.ToValidUTF8(trace[:st.MaxLength], "")
	}
	return fmt.Sprintf("%T", err), err.Error(), trace
}

// levelName is the Logback level a slog level is written as.
func levelName(l slog.Level) string {
	switch {
	case l >= slog.LevelError:
		return "ERROR"
	case l >= slog.LevelWarn:
		return "WARN"
	case l >= slog.LevelInfo:
		return "INFO"
	case l >= slog.LevelDebug:
		return "DEBUG"
	}
	return "TRACE"
}

// field is a field of a line: a value, or an object of fields.
type field struct {
	name string
	val  slog.Value
	raw  string // a value written as it is (GELF's timestamp)
	obj  bool
	kids []field
}

// object returns the object name under n, made if there is none; nil
// when a value has that name.
func (n *field) object(name string) *field {
	for i := range n.kids {
		if n.kids[i].name == name {
			if !n.kids[i].obj {
				return nil
			}
			return &n.kids[i]
		}
	}
	n.kids = append(n.kids, field{name: name, obj: true})
	return &n.kids[len(n.kids)-1]
}

// put sets the value at path under n, making the objects on the way; a
// field that is there already keeps its value, as the format's own fields
// come first.
func (n *field) put(path []string, v slog.Value) {
	for _, name := range path[:len(path)-1] {
		if n = n.object(name); n == nil {
			return
		}
	}
	n.set(path[len(path)-1], v)
}

// set adds the value name under n, unless a field has that name.
func (n *field) set(name string, v slog.Value) {
	for i := range n.kids {
		if n.kids[i].name == name {
			return
		}
	}
	n.kids = append(n.kids, field{name: name, val: v})
}

// setString adds a string value, when it is not empty.
func (n *field) setString(name, s string) {
	if s != "" {
		n.set(name, slog.StringValue(s))
	}
}

// appendObject writes n's fields as a JSON object. path is n's, for
// include, exclude and rename. An object left with no field is not
// written.
func (f *structuredFormat) appendObject(b []byte, n *field, path string) []byte {
	b = append(b, '{')
	empty := len(b)
	for i := range n.kids {
		k := &n.kids[i]
		name, p := k.name, ""
		if f.filtering {
			p = k.name
			if path != "" {
				p = path + "." + k.name
			}
			if !f.keeps(p) {
				continue
			}
			if r, ok := f.renames[p]; ok {
				name = r
			}
		}
		before := len(b)
		if len(b) > empty {
			b = append(b, ',')
		}
		b = appendJSONString(b, name)
		b = append(b, ':')
		switch {
		case k.obj:
			start := len(b)
			if b = f.appendObject(b, k, p); len(b) == start+2 {
				b = b[:before] // {}: nothing kept in it
			}
		case k.raw != "":
			b = append(b, k.raw...)
		default:
			b = appendJSONValue(b, k.val, f.scalarsOnly)
		}
	}
	return append(b, '}')
}

// keeps reports whether include and exclude keep the field at path.
func (f *structuredFormat) keeps(path string) bool {
	for p := path; ; {
		if f.exclude[p] {
			return false
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	if len(f.include) == 0 || f.includeAncestors[path] {
		return true
	}
	for p := path; ; {
		if f.include[p] {
			return true
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}
