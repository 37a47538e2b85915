package security

import "testing"

// TestPathPatternCompiledAsSegments: Matches, which decides most patterns
// by comparing strings, says what matching segment by segment says, for
// every pattern of the kinds the rules hold against paths built of their
// segments, slashes doubled, trailing and missing.
func TestPathPatternCompiledAsSegments(t *testing.T) {
	patterns, paths := patternsAndPaths()
	compiled := 0
	for _, raw := range patterns {
		p, err := ParsePathPattern(raw)
		if err != nil {
			t.Fatal(err)
		}
		if p.form != general {
			compiled++
		}
		for _, path := range paths {
			if got, want := p.Matches(path), p.matchSegments(path); got != want {
				t.Errorf("%s on %q: Matches says %v, segment by segment %v", raw, path, got, want)
			}
		}
	}
	if compiled < len(patterns)/2 {
		t.Errorf("%d of %d patterns decided without their segments; want most", compiled, len(patterns))
	}
}

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

// patternsAndPaths are patterns of every kind the rules hold, and paths
// built of their segments, slashes doubled, trailing and missing.
func patternsAndPaths() (patterns, paths []string) {
	patterns = []string{
		"/", "/**", "/{*rest}", "/*", "/?", "/{id}", "//**", "//", "/a//b", "/api/",
		"/api", "/api/**", "/api/{*rest}", "/api/*", "/api/*/**", "/api/hello", "/api/hello/**",
		"/actuator", "/actuator/health", "/actuator/health/**", "/actuator/env/**",
		"/.well-known/oauth-protected-resource/**", "/users/{id}", "/users/{id}/items",
		"/files/*.json", "/f?o", "/docs/{*rest}", "/a/*/c", "/a/b*/c/**", "/api/v{n}/x",
		"/swagger-ui.html", "/v3/api-docs/**", "/a}b{c",
	}
	segments := []string{"", "api", "hello", "actuator", "health", "env", "users", "1", "items",
		"files", "a.json", "foo", "docs", "a", "b", "c", "bx", "v2", "x", ".well-known", "oauth-protected-resource", "swagger-ui.html"}
	paths = []string{"", "/", "//", "///", "api", "api/hello", "/api/hello/"}
	var build func(prefix string, depth int)
	build = func(prefix string, depth int) {
		if depth == 0 {
			return
		}
		for _, s := range segments {
			p := prefix + "/" + s
			paths = append(paths, p, p+"/")
			build(p, depth-1)
		}
	}
	build("", 3)
	return patterns, paths
}
