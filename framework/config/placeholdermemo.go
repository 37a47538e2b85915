package config

import (
	"errors"
	"slices"
	"sync"
)

// An Environment remembers what each name's value resolves to, so that
// resolving many settings that refer to one another costs time linear in
// their number: a family such as logging.level.* of 100,000 keys, each
// ${the next}, would otherwise resolve every chain again from each key.
//
// What is kept for a name is its outcome wherever the resolution starts:
// its resolved value and the height of its placeholders (how many levels
// they nest), or the error it always ends in (a cycle, a name that does
// not resolve). Whether the depth limit is exceeded depends on where a
// name is met, so a resolver with a memo passes maxPlaceholderDepth, down
// to maxMemoDescent, and reports the limit only at the end: what it learns
// on the way down is kept, and a chain of any length is walked about once.
// Where it is cut at maxMemoDescent, a name keeps a lower bound of its
// height, which is enough to refuse it at once the next time.
//
// Nothing resolved through a secret is kept: each Lookup must see those
// names itself to learn what to mask.

const (
	// maxMemoDescent bounds how deep a resolver with a memo goes to learn
	// the height of the names below the depth limit.
	maxMemoDescent = 1000
	// maxMemoBytes bounds the resolved values kept.
	maxMemoBytes = 16 << 20
)

// placeholderMemo is what an Environment remembers of resolved names.
type placeholderMemo struct {
	mu      sync.Mutex
	sources []*source // the sources the names were resolved in
	names   map[string]memoEntry
	bytes   int
}

// memoEntry is the outcome of resolving one name's value.
type memoEntry struct {
	value  string
	height int   // placeholder levels below the value; a lower bound when cut
	cut    bool  // resolution was cut at maxMemoDescent; only height is known
	err    error // the error resolving always ends in
	// unresolved are the placeholders kept as written in value (lenient
	// resolution), their chains beginning below the name.
	unresolved unresolvedSet
}

// resolver returns a resolver that looks names up with lookup and
// remembers what they resolve to in e. A lenient resolver keeps what
// nothing resolves as written; its outcomes differ from a strict one's, so
// each kind has its memo.
func (e *Environment) resolver(lookup func(name string) (string, bool, error), lenient, secret bool) *placeholderResolver {
	m := &e.memo
	if lenient {
		m = &e.lenientMemo
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.Equal(m.sources, e.sources) {
		// Load replaces the sources as it reads the files; what was
		// resolved in the earlier ones no longer holds.
		m.sources, m.names, m.bytes = slices.Clone(e.sources), map[string]memoEntry{}, 0
	}
	return &placeholderResolver{lookup: lookup, memo: m, lenient: lenient, secret: secret, system: true, dir: e.dir}
}

// remembered returns the outcome of resolving name's value at depth,
// met as the placeholder text, when the memo knows it.
func (r *placeholderResolver) remembered(name, text string, depth int) (string, error, bool) {
	if r.memo == nil {
		return "", nil, false
	}
	r.memo.mu.Lock()
	e, ok := r.memo.names[name]
	r.memo.mu.Unlock()
	deepest := depth + e.height - 1 // of the placeholders below name
	switch {
	case !ok:
		return "", nil, false
	case e.err != nil:
		return "", e.err, true
	case e.cut && deepest >= maxPlaceholderDepth:
		return "", r.depthError(text), true
	case e.cut:
		return "", nil, false // it may fit where it is met now: resolve it
	}
	if e.height > 0 {
		r.deepest = max(r.deepest, deepest)
		if deepest >= maxPlaceholderDepth && r.tooDeep == "" {
			r.tooDeep = text
		}
	}
	r.unresolved.addUnder(name, e.unresolved)
	return e.value, nil, true
}

// resolveName resolves raw, the value of name, at depth, and remembers
// the outcome when it does not depend on where the resolution began.
func (r *placeholderResolver) resolveName(name, raw string, depth int) (string, error) {
	outerDeepest, outerSensitive, outerUnresolved := r.deepest, r.sensitive, r.unresolved
	if Sensitive(name) {
		r.sensitive++
	}
	// What name's value keeps as written is noted below name, for the
	// chain that shows how it was reached.
	r.unresolved = unresolvedSet{}
	r.deepest = depth - 1
	v, err := r.resolve(raw, depth)
	height := r.deepest - depth + 1
	r.deepest = max(outerDeepest, r.deepest)
	unresolved := r.unresolved
	r.unresolved = outerUnresolved
	r.unresolved.addUnder(name, unresolved)
	if r.memo == nil || r.sensitive != outerSensitive {
		return v, err
	}
	var limit *placeholderLimit
	entry := memoEntry{value: v, height: height, err: err, unresolved: unresolved}
	switch {
	case errors.As(err, &limit) && limit.descent:
		entry = memoEntry{height: maxMemoDescent - depth + 1, cut: true}
	case errors.As(err, &limit):
		return v, err // a count exceeded, which depends on what came before
	}
	m := r.memo
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.bytes+len(v) <= maxMemoBytes {
		m.bytes += len(v)
		m.names[name] = entry
	}
	return v, err
}
