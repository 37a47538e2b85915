package settingsfuzz

import (
	"regexp"
	"strings"
)

// profileFileOrigin is the origin of a setting in a profile-specific
// file, as the framework's error names it: file [config/application-b.yml].
var profileFileOrigin = regexp.MustCompile(`from file \[[^\]]*-[^\]/]*\]`)

// A Known difference is one the framework makes on purpose: it covers
// the differences of a case that Match accepts, with its reason. The CI
// test and the campaign count these apart and fail on any other.
type Known struct {
	Name   string
	Reason string
	Match  func(c *Case, diffs []Diff) bool
}

// profileKeyRefused reports whether the only difference is that the
// framework refused a profile key (app.profiles.active, default or
// group.*, as key says) where profiles are already decided, and Spring
// started.
func profileKeyRefused(diffs []Diff, keys ...string) bool {
	if len(diffs) != 1 || diffs[0].Aspect != "refused" || diffs[0].Spring != "started" ||
		!strings.Contains(diffs[0].Go, "is invalid: profiles can only be set on the command line") {
		return false
	}
	for _, k := range keys {
		// The key, or an element of it as a list (app.profiles.default[0]).
		if strings.Contains(diffs[0].Go, "setting "+k) || strings.HasSuffix(k, "=") && strings.Contains(diffs[0].Go, "setting "+strings.TrimSuffix(k, "=")+"[") {
			return true
		}
	}
	return false
}

// known are the deliberate differences, each with its reason (docs/testing.md
// lists them too).
var known = []Known{
	{
		Name: "profile-group-in-profile-file",
		Reason: "spring.profiles.group.<name> in a profile-specific file (application-b.yml): the framework refuses it, " +
			"as it refuses spring.profiles.active, include and default there and as Spring refuses those; Spring Boot 4.1.2 " +
			"starts and ignores the group, since groups are decided before profile files are read " +
			"(InvalidConfigDataPropertyException's PROFILE_SPECIFIC_ERRORS leaves the group out). A setting that silently does nothing is refused.",
		Match: func(c *Case, diffs []Diff) bool {
			return profileKeyRefused(diffs, "app.profiles.group.") && profileFileOrigin.MatchString(diffs[0].Go)
		},
	},
	{
		Name: "profile-key-in-conditional-document",
		Reason: "spring.profiles.active, default or group.<name> in a document with spring.config.activate.on-profile: " +
			"the framework refuses it, as Spring refuses spring.profiles.include there (InactiveConfigDataAccessException: " +
			"profiles are decided before any condition is). Spring Boot 4.1.2 reads the other three from the document even " +
			"when its condition does not hold, since Profiles binds them with a ProfilesValidator as the bind handler, which " +
			"replaces the InactiveSourceChecker that would refuse them: a document that says on-profile: b activates profile a " +
			"without b.",
		Match: func(c *Case, diffs []Diff) bool {
			return profileKeyRefused(diffs, "app.profiles.active=", "app.profiles.default=", "app.profiles.group.")
		},
	},
	{
		Name: "relative-import-from-config-subdirectory",
		Reason: "a relative import (spring.config.import=extra.yml) in a file that the default location " +
			"optional:file:./config/*/ found (config/x/application.yml): the framework reads config/x/extra.yml, beside the " +
			"file, and refuses the start when it is missing. Spring Boot 4.1.2 resolves the import against the location's " +
			"pattern, config/*/extra.yml, so it reads a sibling directory's config/y/extra.yml, and checks a mandatory " +
			"import by its text, so a missing one passes when another file imported the same text. Both are accidents of " +
			"how Spring prefixes a relative import with its parent's location.",
		Match: func(c *Case, diffs []Diff) bool {
			return len(diffs) == 1 && diffs[0].Aspect == "refused" && diffs[0].Spring == "started" && importFromSubdirectory.MatchString(diffs[0].Go)
		},
	},
}

// importFromSubdirectory is the framework's refusal of a relative import
// missing beside a file found by the config/*/ pattern.
var importFromSubdirectory = regexp.MustCompile(`setting app\.config\.import="[^"]*" from file \[config/[^/\]]+/[^\]]*\] .*does not exist`)

// KnownDifferences are the deliberate differences, for a report.
func KnownDifferences() []Known { return known }

// Deliberate returns the known difference that covers a case's
// differences, or nil.
func Deliberate(c *Case, diffs []Diff) *Known {
	for i := range known {
		if known[i].Match(c, diffs) {
			return &known[i]
		}
	}
	return nil
}
