package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/springport/greeter/framework/profile"
)

// A settings file holds one or more documents ("---" in YAML, "#---" in
// .properties). Each document is its own source, later documents over
// earlier ones, so that a later document overrides an earlier one of the
// same file. A document may apply only under some profiles:
//
//	app.config.activate.on-profile=dev & !cloud
//
// Profiles are decided from the documents without such a condition; the
// conditional ones are then kept or dropped by the profiles decided. So a
// conditional document cannot activate profiles, and Load refuses one that
// tries, whether or not it applies (see parseDocuments and
// refuseProfileKeys).

// keyOnProfile makes a document conditional on the active profiles.
const keyOnProfile = "app.config.activate.on-profile"

// keyLegacyProfiles is what made a document conditional before Spring
// Boot 2.4 (spring.profiles: dev). Spring refuses it in a settings file
// rather than ignore it, since the document would otherwise apply under
// every profile; so does Load. Only the key itself is refused (or its
// list form, app.profiles[0]): app.profiles.active and the others under
// it are the keys of today.
const keyLegacyProfiles = "app.profiles"

// document is one document of a settings file.
type document struct {
	props []Property
	// onProfile is the condition under which the document applies; the
	// zero Condition (conditional false) for a document that always does.
	onProfile   profile.Condition
	conditional bool
}

// parseDocuments reads a settings file's text by its extension ext. An
// on-profile expression that does not parse, or the legacy key
// app.profiles, is a *SettingError naming the file and line; origin names
// a line of the file.
func parseDocuments(ext, text string, origin func(Property) string) ([]document, error) {
	var parsed [][]Property
	var err error
	switch ext {
	case ".properties":
		parsed, err = ParsePropertiesDocuments(text)
	case ".yml", ".yaml":
		parsed, err = ParseYAML(text)
	default:
		return nil, fmt.Errorf("settings files are .properties, .yml or .yaml, not %q", ext)
	}
	if err != nil {
		return nil, err
	}
	docs := make([]document, len(parsed))
	onProfile := matchKey(keyOnProfile)
	for i, props := range parsed {
		docs[i].props = props
		// The document's condition, in any form, or a list of them (as
		// YAML writes one): spring.config.activate.on-profile too, unless
		// the document says app.config.activate.on-profile as well, which
		// wins (a source's lookup decides, as for any key).
		var cond *source
		for _, p := range props {
			match := appMatch(matchKey(p.Key))
			if isLegacyProfilesKey(match) {
				return nil, &SettingError{Value: Value{Key: p.Key, Raw: p.Value, Origin: origin(p)},
					Reason: "it should be replaced with " + keyOnProfile + ": " + keyLegacyProfiles + " is how a document was made to apply only under some profiles before Spring Boot 2.4 (to activate profiles, set " + keyActive + ")"}
			}
			if isListOf(match, onProfile) {
				if cond == nil {
					cond = newSource("")
				}
				cond.set(p.Key, p.Value, origin(p))
			}
		}
		if cond == nil {
			continue
		}
		e, _ := cond.lookup(keyOnProfile)
		c, err := profile.Parse(splitList(e.Value)...)
		if err != nil {
			return nil, &SettingError{Value: Value{Key: e.Key, Raw: e.Value, Origin: e.Origin}, Reason: err.Error()}
		}
		docs[i].onProfile, docs[i].conditional = c, true
		// Refused whether or not the document applies, as Spring refuses
		// app.profiles.include there (InactiveConfigDataAccessException):
		// the profiles are decided before any condition is, so a key that
		// decides them means nothing in a conditional document.
		var errs []error
		for _, p := range props {
			if isProfileKey(appMatch(matchKey(p.Key))) {
				errs = append(errs, &SettingError{Value: Value{Key: p.Key, Raw: p.Value, Origin: origin(p)}, Reason: profileKeyReason})
			}
		}
		if len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
	}
	return docs, nil
}

// profileKeyReason is why a profile key is refused where it is read only
// after the profiles are decided.
const profileKeyReason = "profiles can only be set on the command line, in the environment or in a document that is not profile-specific (not in a profile file, nor after " + keyOnProfile + ")"

// applies reports whether the document is in effect under the active
// profiles; nil profiles means they are not decided yet, when only an
// unconditional document is.
func (d document) applies(profiles []string) bool {
	if !d.conditional {
		return true
	}
	return profiles != nil && d.onProfile.Matches(profiles)
}

// documentSourceName names the source of document i of n in a file, as
// Spring does: the file's own name when it holds one document, with
// " (document #i)" (counting from 0) when it holds several.
func documentSourceName(fileSource string, i, n int) string {
	if n == 1 {
		return fileSource
	}
	return fmt.Sprintf("%s (document #%d)", fileSource, i)
}

// refuseProfileKeys reports the keys that src may not hold: a document
// that applies only under some profiles, or a profile-specific file, is
// read after the profiles are decided, so a key that decides them would
// silently do nothing there. A profile file may hold conditional
// documents, as in Spring: they apply under a further profile.
func refuseProfileKeys(src *source) []error {
	var errs []error
	for i, k := range src.keys {
		var reason string
		switch {
		case src.profileBound && isProfileKey(appMatch(src.matches[i])):
			reason = profileKeyReason
		default:
			continue
		}
		e := src.entries[k]
		errs = append(errs, &SettingError{Value: Value{Key: k, Raw: e.Value, Source: src.name, Origin: e.Origin}, Reason: reason})
	}
	return errs
}

// isProfileKey reports whether the key of match key match (app. form)
// decides the active profiles: a profile key, an element of one, or a
// profile group.
func isProfileKey(match string) bool {
	for _, k := range []string{keyActive, keyInclude, keyDefault} {
		if isListOf(match, matchKey(k)) {
			return true
		}
	}
	return strings.HasPrefix(match, matchKey(strings.TrimSuffix(keyGroup, "."))+".")
}

// isLegacyProfilesKey reports whether the key of match key match (app.
// form) is app.profiles or an element of it, app.profiles[0] (as a YAML
// list flattens).
func isLegacyProfilesKey(match string) bool { return isListOf(match, keyLegacyProfiles) }

// isListOf reports whether the match key match is list, or an element of
// it (list.0, as list[0] is).
func isListOf(match, list string) bool {
	index, ok := strings.CutPrefix(match, list+".")
	if !ok {
		return match == list
	}
	return index != "" && strings.Trim(index, "0123456789") == ""
}
