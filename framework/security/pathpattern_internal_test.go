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
