package settingsfuzz

import (
	"slices"
)

// Run loads c on both sides, written under dir, and compares them.
func Run(c *Case, spring *SpringLoader, dir string) ([]Diff, Result, Result, error) {
	sr, gr, err := c.Write(dir)
	if err != nil {
		return nil, Result{}, Result{}, err
	}
	gres := LoadGo(gr)
	sres, err := spring.Load(sr)
	if err != nil {
		return nil, Result{}, Result{}, err
	}
	return Compare(sres, gres), sres, gres, nil
}

// Minimize shrinks a case that differs: it drops files, documents,
// settings, variables, arguments and compared keys one at a time, keeping
// each drop after which the first difference (its aspect) remains, until
// no drop keeps it. It returns the least case and its differences.
func Minimize(c *Case, spring *SpringLoader, dir string) (*Case, []Diff, error) {
	diffs, _, _, err := Run(c, spring, dir)
	if err != nil || len(diffs) == 0 {
		return c, diffs, err
	}
	aspect := diffs[0].Aspect
	still := func(cand *Case) (bool, []Diff, error) {
		d, _, _, err := Run(cand, spring, dir)
		if err != nil {
			return false, nil, err
		}
		return slices.ContainsFunc(d, func(x Diff) bool { return x.Aspect == aspect }), d, nil
	}
	for changed := true; changed; {
		changed = false
		for _, cand := range shrinks(c) {
			ok, d, err := still(cand)
			if err != nil {
				return c, diffs, err
			}
			if ok {
				c, diffs, changed = cand, d, true
				break
			}
		}
	}
	return c, diffs, nil
}

// shrinks are the cases one drop smaller than c, the largest drops first.
func shrinks(c *Case) []*Case {
	var out []*Case
	clone := func() *Case {
		n := *c
		n.Files = slices.Clone(c.Files)
		for i := range n.Files {
			n.Files[i].Docs = slices.Clone(n.Files[i].Docs)
			for j := range n.Files[i].Docs {
				n.Files[i].Docs[j].KVs = slices.Clone(n.Files[i].Docs[j].KVs)
			}
		}
		n.Env, n.Args, n.Keys = slices.Clone(c.Env), slices.Clone(c.Args), slices.Clone(c.Keys)
		return &n
	}
	for i := range c.Files {
		n := clone()
		n.Files = slices.Delete(n.Files, i, i+1)
		out = append(out, n)
	}
	for i := range c.Env {
		n := clone()
		n.Env = slices.Delete(n.Env, i, i+1)
		out = append(out, n)
	}
	for i := range c.Args {
		n := clone()
		n.Args = slices.Delete(n.Args, i, i+1)
		out = append(out, n)
	}
	for i, f := range c.Files {
		for j := range f.Docs {
			if len(f.Docs) > 1 {
				n := clone()
				n.Files[i].Docs = slices.Delete(n.Files[i].Docs, j, j+1)
				out = append(out, n)
			}
			for k := range f.Docs[j].KVs {
				n := clone()
				n.Files[i].Docs[j].KVs = slices.Delete(n.Files[i].Docs[j].KVs, k, k+1)
				out = append(out, n)
			}
		}
		if f.Nested || f.Colon {
			n := clone()
			n.Files[i].Nested, n.Files[i].Colon = false, false
			out = append(out, n)
		}
	}
	for i := range c.Keys {
		if len(c.Keys) > 1 {
			n := clone()
			n.Keys = slices.Delete(n.Keys, i, i+1)
			out = append(out, n)
		}
	}
	return out
}
