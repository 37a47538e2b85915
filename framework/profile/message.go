package profile

import (
	"strconv"
	"strings"
)

// Message is the start-up log line about profiles, worded as Spring
// Boot's: the explicitly active profiles, or when there are none the
// default profiles that stand in.
func Message(explicit, defaults []string) string {
	switch len(explicit) {
	case 0:
		return "No active profile set, falling back to " + plural(len(defaults), "default profile") + ": " + quoted(defaults)
	case 1:
		return "The following 1 profile is active: " + quoted(explicit)
	}
	return "The following " + plural(len(explicit), "profile") + " are active: " + quoted(explicit)
}

// plural is "1 profile", "2 profiles".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// quoted lists the profiles as Spring does: "dev", "qa".
func quoted(profiles []string) string {
	q := make([]string, len(profiles))
	for i, p := range profiles {
		q[i] = `"` + p + `"`
	}
	return strings.Join(q, ", ")
}
