package dispatch

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Validation of a decoded body against the constraints its type declares
// (constraint.go), as Bean Validation's @Valid does for a Spring
// @RequestBody. The body type is read by reflection once, when the route
// is compiled, into a plan that visits only what holds a constraint; a
// request's body is then walked along the plan, and a valid one costs no
// allocation. The walk always cascades into nested structs, pointers to
// them, and lists and maps of them, where Bean needs @Valid to.

// plan is what to check in values of one type; nil for a type that holds
// no constraint.
type plan struct {
	kind   planKind
	fields []fieldPlan // planStruct
	elem   *plan       // planPointer, planList, planMap: what to check in the element
	t      reflect.Type
	live   bool // holds a constraint, here or below
}

type planKind uint8

const (
	planStruct planKind = iota
	planPointer
	planList // a slice or an array
	planMap
)

type fieldPlan struct {
	index    int
	name     string // its JSON member name
	embedded bool   // promoted into its parent: no member of its own
	rules    rules
	checked  bool  // rules holds a constraint
	elem     *plan // what to check inside its value; nil for nothing
}

// compileChecks reads the constraints of the route's body type, refusing
// any it cannot understand.
func (rt *route) compileChecks() []error {
	if rt.body == nil {
		return nil
	}
	p, errs := bodyPlan(rt.body)
	if len(errs) > 0 {
		return errs
	}
	rt.checks = p
	return nil
}

// bodyPlan plans the checks of t; nil when t holds no constraint.
func bodyPlan(t reflect.Type) (*plan, []error) {
	b := planner{plans: map[reflect.Type]*plan{}}
	root := b.plan(t)
	if len(b.errs) > 0 {
		return nil, b.errs
	}
	// A plan is live when it, or one it leads to, checks something; the
	// loop settles the recursive types, which refer to themselves.
	for changed := true; changed; {
		changed = false
		for _, p := range b.plans {
			if !p.live && p.leadsToLive() {
				p.live, changed = true, true
			}
		}
	}
	for _, p := range b.plans {
		if p.elem != nil && !p.elem.live {
			p.elem = nil
		}
		for i := range p.fields {
			if f := &p.fields[i]; f.elem != nil && !f.elem.live {
				f.elem = nil
			}
		}
	}
	if root == nil || !root.live {
		return nil, nil
	}
	return root, nil
}

func (p *plan) leadsToLive() bool {
	if p.elem != nil && p.elem.live {
		return true
	}
	for _, f := range p.fields {
		if f.checked || f.elem != nil && f.elem.live {
			return true
		}
	}
	return false
}

type planner struct {
	plans map[reflect.Type]*plan
	errs  []error
}

// plan returns the plan of t, nil for a type that cannot hold a
// constrained field.
func (b *planner) plan(t reflect.Type) *plan {
	if p, ok := b.plans[t]; ok {
		return p
	}
	var p *plan
	switch t.Kind() {
	case reflect.Pointer:
		p = &plan{kind: planPointer, t: t}
		b.plans[t] = p
		p.elem = b.plan(t.Elem())
	case reflect.Slice, reflect.Array:
		p = &plan{kind: planList, t: t}
		b.plans[t] = p
		p.elem = b.plan(t.Elem())
	case reflect.Map:
		p = &plan{kind: planMap, t: t}
		b.plans[t] = p
		p.elem = b.plan(t.Elem())
	case reflect.Struct:
		p = &plan{kind: planStruct, t: t}
		b.plans[t] = p
		b.structFields(p)
	default:
		return nil
	}
	return p
}

func (b *planner) structFields(p *plan) {
	t := p.t
	for i := range t.NumField() {
		f := t.Field(i)
		validate, hasValidate := f.Tag.Lookup("validate")
		pattern, hasPattern := f.Tag.Lookup("pattern")
		tagged := hasValidate || hasPattern
		fail := func(format string, args ...any) {
			b.errs = append(b.errs, fmt.Errorf("body %s, field %s: %s", t, f.Name, fmt.Sprintf(format, args...)))
		}
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			if tagged {
				fail("has constraints, but the body never sets it (unexported or json:\"-\")")
			}
			continue
		}
		ft := f.Type
		if f.Anonymous && name == "" && (ft.Kind() == reflect.Struct || ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct) {
			if tagged {
				fail("is embedded, and its fields, not the struct, take constraints")
				continue
			}
			p.fields = append(p.fields, fieldPlan{index: i, embedded: true, elem: b.plan(ft)})
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fp := fieldPlan{index: i, name: name, elem: b.plan(ft)}
		if tagged {
			r, err := parseRules(validate, pattern)
			if err == nil {
				err = r.appliesTo(ft)
			}
			if err != nil {
				fail("%v", err)
				continue
			}
			fp.rules, fp.checked = r, r.any()
		}
		p.fields = append(p.fields, fp)
	}
}

// check returns the violations of the body v, nil when it has none: at
// most MaxViolations+1 of them, the one past the limit only telling that
// there are more.
func (p *plan) check(v reflect.Value) []Violation {
	w := walkers.Get().(*walker)
	w.walk(p, v)
	vs := w.violations
	w.path, w.violations = w.path[:0], nil
	walkers.Put(w)
	return vs
}

// walker walks one body; pooled, so that its path's storage is kept from
// body to body.
type walker struct {
	path       []segment // from the body to the value being checked
	violations []Violation
}

// full reports whether the walker has found more violations than a
// problem document lists: the walk stops there, so that what a body
// costs to check is bounded by the limit, not by the body.
func (w *walker) full() bool { return len(w.violations) > MaxViolations }

var walkers = sync.Pool{New: func() any { return new(walker) }}

// segment is one step of the path: a member name, an index, or a map key.
type segment struct {
	name  string
	index int // -1 for a name or a key
	key   reflect.Value
}

func (w *walker) walk(p *plan, v reflect.Value) {
	if w.full() {
		return
	}
	switch p.kind {
	case planPointer:
		if !v.IsNil() {
			w.walk(p.elem, v.Elem())
		}
	case planList:
		for i := 0; i < v.Len() && !w.full(); i++ {
			w.path = append(w.path, segment{index: i})
			w.walk(p.elem, v.Index(i))
			w.path = w.path[:len(w.path)-1]
		}
	case planMap:
		w.walkMap(p, v)
	case planStruct:
		for i := range p.fields {
			f := &p.fields[i]
			fv := v.Field(f.index)
			if f.embedded {
				w.walk(f.elem, fv)
				continue
			}
			w.path = append(w.path, segment{name: f.name, index: -1})
			if f.checked {
				w.check(&f.rules, fv)
			}
			if f.elem != nil {
				w.walk(f.elem, fv)
			}
			w.path = w.path[:len(w.path)-1]
		}
	}
}

// walkMap walks a map's values in the order the map gives them, then
// sorts what it found by pointer, so that a report does not change from
// one request to the next (unless the walk stops at the limit inside the
// map: which of its values were walked by then is chance). Its key and
// value are read into values of its own: a map with constraints inside
// costs a few allocations.
func (w *walker) walkMap(p *plan, v reflect.Value) {
	if v.Len() == 0 {
		return
	}
	first := len(w.violations)
	key, val := reflect.New(p.t.Key()).Elem(), reflect.New(p.t.Elem()).Elem()
	it := v.MapRange()
	for !w.full() && it.Next() {
		key.SetIterKey(it)
		val.SetIterValue(it)
		w.path = append(w.path, segment{index: -1, key: key})
		w.walk(p.elem, val)
		w.path = w.path[:len(w.path)-1]
	}
	slices.SortStableFunc(w.violations[first:], func(a, b Violation) int { return strings.Compare(a.Pointer, b.Pointer) })
}

// check checks one field's value against its rules.
func (w *walker) check(r *rules, v reflect.Value) {
	add := func(msg string) { w.violate(msg) }
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			if r.required {
				add(msgNull)
			}
			return // absent: nothing else to check, as Bean takes null
		}
		if v.Kind() == reflect.Interface {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.String:
		r.checkText(v.String(), add)
	case reflect.Slice, reflect.Map:
		if v.IsNil() && !r.required {
			return // absent
		}
		r.checkLen(v.Len(), add)
	case reflect.Array:
		r.checkLen(v.Len(), add)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		r.checkInt(v.Int(), add)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		r.checkUint(v.Uint(), add)
	case reflect.Float32, reflect.Float64:
		r.checkFloat(v.Float(), add)
	}
}

// maxPointer is the length past which a violation's pointer is cut: a
// body nested thousands of levels deep would otherwise be echoed back in
// every pointer into it.
const maxPointer = 1024

// violate records a violation of the value at the walker's path. A map's
// key is clipped as a value quoted in a detail is, and a pointer longer
// than maxPointer is cut, ending in "…": both name where the fault is
// without echoing a body back.
func (w *walker) violate(msg string) {
	if w.full() {
		return
	}
	var b strings.Builder
	b.WriteByte('#')
	for _, s := range w.path {
		if b.Len() > maxPointer {
			break
		}
		b.WriteByte('/')
		switch {
		case s.index >= 0:
			b.WriteString(strconv.Itoa(s.index))
		case s.key.IsValid():
			writeToken(&b, Clip(keyText(s.key)))
		default:
			writeToken(&b, s.name)
		}
	}
	w.violations = append(w.violations, Violation{Detail: msg, Pointer: clipPointer(b.String())})
}

// clipPointer cuts a pointer longer than maxPointer, at a character's
// start, and marks the cut with "…".
func clipPointer(p string) string {
	if len(p) <= maxPointer {
		return p
	}
	cut := maxPointer
	for cut > 0 && !utf8.RuneStart(p[cut]) {
		cut--
	}
	return p[:cut] + "…"
}

// keyText is a map key as encoding/json writes it as a member name.
func keyText(k reflect.Value) string {
	switch k.Kind() {
	case reflect.String:
		return k.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10)
	}
	return fmt.Sprint(k.Interface())
}

// checkBody checks a decoded body b against the route's constraints,
// returning the 400 that lists its violations, and the parameters'
// faults beside them; nil when there are none.
func checkBody(c *call, b any) error {
	var vs []Violation
	if p := c.req.route.checks; p != nil {
		vs = p.check(reflect.ValueOf(b).Elem())
	}
	if vs == nil && c.faults == nil {
		return nil
	}
	return answerFaults(c.faults, vs)
}
