package flyway

import (
	"fmt"
	"slices"
	"strings"
)

// A state is a migration's state, as Flyway's MigrationState names it
// (and flyway info shows it).
type state string

const (
	statePending         state = "Pending"
	stateBelowBaseline   state = "Below Baseline"
	stateBaselineIgnored state = "Ignored (Baseline)"
	stateBaseline        state = "Baseline"
	stateIgnored         state = "Ignored"
	stateMissingSuccess  state = "Missing"
	stateMissingFailed   state = "Failed (Missing)"
	stateSuccess         state = "Success"
	stateFailed          state = "Failed"
	stateOutOfOrder      state = "Out of Order"
	stateFutureSuccess   state = "Future"
	stateFutureFailed    state = "Failed (Future)"
	stateOutdated        state = "Outdated"
	stateSuperseded      state = "Superseded"
	stateDeleted         state = "Deleted"
)

func (s state) failed() bool {
	return s == stateFailed || s == stateMissingFailed || s == stateFutureFailed
}

func (s state) applied() bool {
	switch s {
	case statePending, stateBelowBaseline, stateBaselineIgnored, stateIgnored:
		return false
	}
	return true
}

// An info is a migration as Flyway's MigrationInfoImpl sees it: a file,
// a row of the history, or both.
type info struct {
	file       *migration
	row        *row
	outOfOrder bool // applied after a newer version
	deleted    bool // marked deleted by a later DELETE row
	state      state
}

func (i info) version() *version {
	if i.row != nil {
		return i.row.version
	}
	return i.file.version
}

func (i info) description() string {
	if i.row != nil {
		return i.row.description
	}
	return i.file.description
}

func (i info) typ() string {
	if i.row != nil {
		return i.row.typ
	}
	return typeSQL
}

// name says which migration an info is, for messages: its version or
// description, and its file where there is one.
func (i info) name() string {
	var s string
	if v := i.version(); v != nil {
		s = "version " + v.text
	} else {
		s = fmt.Sprintf("repeatable migration %q", i.description())
	}
	switch {
	case i.file != nil:
		s += " (" + i.file.file + ")"
	case i.row != nil:
		s += " (" + i.row.script + ")"
	}
	return s
}

// infos is the state of every migration, as Flyway's
// MigrationInfoServiceImpl.refresh computes it, with no target, cherry
// pick or undo (Flyway Teams').
type infos struct {
	all []info
	// lastApplied is the newest version applied (the baseline's included),
	// nil when none is.
	lastApplied *version
	// appliedBaseline is the newest baseline, nil without one.
	appliedBaseline *version
}

// newer reports whether v is newer than w, every version being newer than
// nil (MigrationVersion.compareTo(null) and EMPTY).
func newer(v, w *version) bool { return w == nil || v.compare(*w) > 0 }

// compute merges the files and the history's rows.
func compute(files []migration, rows []row, outOfOrder bool) (*infos, error) {
	s := &infos{}
	var lastResolved *version
	for _, f := range files {
		if f.version != nil && newer(f.version, lastResolved) {
			lastResolved = f.version
		}
	}
	findFile := func(r row) *migration {
		for i := range files {
			f := &files[i]
			switch {
			case r.version == nil && f.version == nil && f.description == r.description:
				return f
			case r.version != nil && f.version != nil && r.typ == typeSQL && f.version.compare(*r.version) == 0:
				return f
			}
		}
		return nil
	}

	// Rows with a version, in the order applied; a DELETE row marks the
	// latest with its version deleted.
	var versioned []info
	for i := range rows {
		r := &rows[i]
		if r.version == nil {
			continue
		}
		if baselineType(r.typ) && newer(r.version, s.appliedBaseline) {
			s.appliedBaseline = r.version
		}
		if r.typ == typeDelete && r.success {
			marked := false
			for j := len(versioned) - 1; j >= 0 && !marked; j-- {
				if !synthetic(versioned[j].row.typ) && versioned[j].row.version.compare(*r.version) == 0 {
					if versioned[j].deleted {
						return nil, fmt.Errorf("corrupted schema history: multiple delete entries for version %s", r.version)
					}
					versioned[j].deleted, marked = true, true
				}
			}
			continue
		}
		versioned = append(versioned, info{row: r})
	}
	for i := range versioned {
		v := &versioned[i]
		if newer(v.row.version, s.lastApplied) {
			if v.row.typ != typeDelete && !v.deleted {
				s.lastApplied = v.row.version
			}
		} else {
			v.outOfOrder = true
		}
	}
	// Rows without a version: repeatable migrations and the schema
	// marker; a DELETE row marks the latest with its description deleted.
	var repeatable []info
	for i := range rows {
		r := &rows[i]
		if r.version != nil {
			continue
		}
		repeatable = append(repeatable, info{row: r})
		if r.typ == typeDelete && r.success {
			for j := len(repeatable) - 1; j >= 0; j-- {
				if !synthetic(repeatable[j].row.typ) && repeatable[j].row.description == r.description {
					repeatable[j].deleted = true
					break
				}
			}
		}
	}
	latest := map[string]int{}
	for _, a := range repeatable {
		if a.deleted && a.row.typ == typeDelete {
			continue
		}
		if rank, ok := latest[a.row.description]; !ok || a.row.rank > rank {
			latest[a.row.description] = a.row.rank
		}
	}

	applied := map[*migration]bool{}
	for i := range versioned {
		v := &versioned[i]
		v.file = findFile(*v.row)
		if v.file != nil && !v.deleted && v.row.typ != typeDelete {
			applied[v.file] = true
		}
		v.state = s.appliedState(*v, lastResolved, latest)
	}
	for i := range repeatable {
		a := &repeatable[i]
		a.file = findFile(*a.row)
		if a.file != nil && !a.deleted && a.row.typ != typeDelete && a.row.rank == latest[a.row.description] &&
			a.row.checksum != nil && *a.row.checksum == a.file.checksum {
			applied[a.file] = true
		}
		a.state = s.appliedState(*a, lastResolved, latest)
	}
	s.all = append(versioned, repeatable...)
	slices.SortStableFunc(s.all, func(a, b info) int { return a.row.rank - b.row.rank })

	var pending []info
	for i := range files {
		f := &files[i]
		if applied[f] {
			continue
		}
		p := info{file: f, state: statePending}
		if v := f.version; v != nil {
			// Flyway compares with the pending baseline (a baseline
			// migration's) when nothing is applied: never here.
			base := s.appliedBaseline
			if s.lastApplied == nil {
				base = nil
			}
			switch {
			case base != nil && v.compare(*base) < 0:
				p.state = stateBelowBaseline
			case base != nil && v.compare(*base) == 0:
				p.state = stateBaselineIgnored
			case s.lastApplied != nil && v.compare(*s.lastApplied) < 0 && !outOfOrder:
				p.state = stateIgnored
			}
		}
		pending = append(pending, p)
	}
	// The files are in Flyway's order already: versioned by version,
	// then repeatable by description.
	s.all = append(s.all, pending...)
	return s, nil
}

// appliedState is a row's state (BaseAppliedMigration.getState).
func (s *infos) appliedState(a info, lastResolved *version, latest map[string]int) state {
	r := a.row
	switch {
	case a.deleted:
		return stateDeleted
	case r.typ == typeDelete:
		return stateSuccess
	case baselineType(r.typ):
		return stateBaseline
	}
	isLatest := r.version != nil
	if !isLatest {
		rank, ok := latest[r.description]
		isLatest = !ok || rank == r.rank
	}
	if a.file == nil && isLatest {
		switch {
		case r.typ == typeSchema:
			return stateSuccess
		case r.version == nil || (lastResolved != nil && r.version.compare(*lastResolved) < 0):
			if r.success {
				return stateMissingSuccess
			}
			return stateMissingFailed
		case r.success:
			return stateFutureSuccess
		default:
			return stateFutureFailed
		}
	}
	switch {
	case !r.success:
		return stateFailed
	case r.typ == typeSchema:
		return stateSuccess
	case r.version == nil:
		if r.rank == latest[r.description] {
			if a.file != nil && r.checksum != nil && *r.checksum == a.file.checksum {
				return stateSuccess
			}
			return stateOutdated
		}
		return stateSuperseded
	case a.outOfOrder:
		return stateOutOfOrder
	}
	return stateSuccess
}

// validate returns what Flyway's validate reports (MigrationInfoImpl.validate),
// with its default ignoreMigrationPatterns, *:future, and, as
// validateOnMigrate does, *:pending: a failed migration, an applied one
// whose file is gone, a pending one older than the newest applied
// (unless out of order is allowed), and an applied one whose file's
// checksum, description or type differs.
func (s *infos) validate() []string {
	var problems []string
	for _, i := range s.all {
		switch i.state {
		case stateDeleted, stateFutureSuccess, statePending:
			continue
		}
		if i.state.failed() && i.state != stateFutureFailed {
			problems = append(problems, fmt.Sprintf("Detected failed migration: %s.\nPlease remove any half-completed changes, then delete its row from the schema history (Flyway's repair does).", i.name()))
			continue
		}
		if i.file == nil && !synthetic(i.row.typ) && !undoType(i.row.typ) && i.state != stateSuperseded && i.state != stateFutureFailed {
			problems = append(problems, fmt.Sprintf("Detected applied migration not resolved locally: %s.\nIf you removed this migration intentionally, run Flyway's repair to mark it deleted.", i.name()))
			continue
		}
		if i.state == stateIgnored {
			problems = append(problems, fmt.Sprintf("Detected resolved migration not applied to database: %s, older than the newest applied (%s).\nRename it to a newer version, or set app.flyway.out-of-order=true to apply it.", i.name(), s.lastApplied))
			continue
		}
		if i.file == nil || i.row == nil || i.row.typ == typeDelete || undoType(i.row.typ) {
			continue
		}
		v := i.row.version
		if v != nil && !newer(v, s.appliedBaseline) {
			continue
		}
		f, r := i.file, i.row
		switch {
		case r.typ != typeSQL:
			problems = append(problems, mismatch("type", i, r.typ, typeSQL))
		case (v != nil || (i.state != stateOutdated && i.state != stateSuperseded)) && r.checksum != nil && *r.checksum != f.checksum:
			problems = append(problems, mismatch("checksum", i, fmt.Sprint(*r.checksum), fmt.Sprint(f.checksum)))
		case abbreviateDescription(f.description) != r.description && !(r.description == "<< no description >>" && f.description == ""):
			problems = append(problems, mismatch("description", i, r.description, f.description))
		}
	}
	return problems
}

// mismatch is Flyway's message for a migration that changed since it was
// applied, naming the file too.
func mismatch(what string, i info, applied, resolved string) string {
	return fmt.Sprintf("Migration %s mismatch for migration %s\n-> Applied to database : %s\n-> Resolved locally    : %s\nEither revert the changes to the migration, or run Flyway's repair to update the schema history.",
		what, i.name(), applied, resolved)
}

// failed returns the message with which Flyway's migrate refuses a history
// holding a failed migration, or "" (DbMigrate.migrateGroup: one failed
// future migration alone is let be, as *:future is ignored).
func (s *infos) failed(t table) string {
	var failed []info
	for _, i := range s.all {
		if i.state.failed() {
			failed = append(failed, i)
		}
	}
	if len(failed) == 0 || (len(failed) == 1 && failed[0].state == stateFutureFailed) {
		return ""
	}
	return fmt.Sprintf("schema %s contains a failed migration, %s: remove any half-completed changes, then delete its row from %s (Flyway's repair does)", quoteIdent(t.schema), failed[0].name(), t)
}

// current is the newest version applied (MigrationInfoServiceImpl.current),
// nil for none.
func (s *infos) current() *version {
	var cur *version
	for _, i := range s.all {
		if i.state.applied() && i.state != stateDeleted && i.typ() != typeDelete && i.version() != nil && newer(i.version(), cur) {
			cur = i.version()
		}
	}
	return cur
}

// next returns the first pending migration, nil for none.
func (s *infos) next() *info {
	for i := range s.all {
		if s.all[i].state == statePending {
			return &s.all[i]
		}
	}
	return nil
}

// future returns the versions applied that no file knows and that are
// newer than every file's, which Flyway warns about.
func (s *infos) future() []string {
	var out []string
	for _, i := range s.all {
		if (i.state == stateFutureSuccess || i.state == stateFutureFailed) && i.version() != nil {
			out = append(out, i.version().text)
		}
	}
	return out
}

func joinLines(problems []string) string { return strings.Join(problems, "\n") }
