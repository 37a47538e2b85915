package config

// The nearest key to a misspelt one, by edit distance: what the warning
// about a key nothing reads suggests (server.prot: did you mean
// server.port?).

import "slices"

// nearest returns the candidate closest to key by edit distance, when it
// is close enough to be a slip: one edit in eight characters, at least
// one and at most three. Ties go to the first in sorted order.
func nearest(key string, candidates []string) (string, bool) {
	const maxLen = 200 // longer keys are no one's slip, and would cost len² each
	if len(key) > maxLen {
		return "", false
	}
	limit := min(max(len(key)/8, 1), 3)
	best, bestDistance := "", limit+1
	for _, c := range slices.Sorted(slices.Values(candidates)) {
		if len(c) > maxLen || abs(len(c)-len(key)) > limit {
			continue
		}
		if d := editDistance(key, c); d < bestDistance {
			best, bestDistance = c, d
		}
	}
	return best, best != ""
}

func abs(n int) int { return max(n, -n) }

// editDistance is the optimal string alignment distance between a and b:
// the insertions, deletions, substitutions and swaps of two neighbours
// that make one the other (server.prot is one from server.port).
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
