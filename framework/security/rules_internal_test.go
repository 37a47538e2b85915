package security

import "testing"

// TestRulesIndexedAsInOrder: Decide, which tries only the rules that may
// match the path's first segment, decides as trying every rule in order
// does, whatever the order of patterns with and without a first segment.
func TestRulesIndexedAsInOrder(t *testing.T) {
	patterns, paths := patternsAndPaths()
	user := &Principal{Name: "u", Authorities: []string{"ROLE_A"}}
	for _, order := range [][]string{patterns, reversed(patterns)} {
		rs := new(Rules)
		for i, raw := range order {
			switch i % 3 {
			case 0:
				rs.Permit(raw)
			case 1:
				rs.Require(raw, "ROLE_A")
			default:
				rs.Require(raw, "ROLE_B")
			}
		}
		for _, path := range paths {
			for _, p := range []*Principal{nil, user} {
				want := Unauthenticated
				if p != nil {
					want = Allowed
				}
				for i := range rs.rules {
					if rs.rules[i].pattern.matchSegments(path) {
						want = rs.rules[i].decide(p)
						break
					}
				}
				if got := rs.Decide(path, p); got != want {
					t.Errorf("%q by %v: Decide says %d, the rules in order %d", path, p, got, want)
				}
			}
		}
	}
}

func reversed(s []string) []string {
	r := make([]string, len(s))
	for i, v := range s {
		r[len(s)-1-i] = v
	}
	return r
}
