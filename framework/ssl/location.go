package ssl

// Where a store's content comes from, as Spring Boot's resource loader
// takes a location: a file path (file:path too), base64:<content> (Spring
// Boot 3.4's), and for a PEM setting the PEM text itself. classpath: has
// no counterpart in a Go binary and is refused, as is any other location
// type (http:, ...).

import (
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"regexp"
	"strings"
)

// locationType matches a location's type prefix; one letter is not one,
// so that a Windows drive letter is a path.
var locationType = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]+):`)

// isPEMText reports whether a PEM setting holds the PEM text itself, as
// Spring Boot's PemContent takes it.
func isPEMText(value string) bool { return strings.Contains(value, "-----BEGIN") }

// file returns the file a location names, or "" when its content is in
// the setting (base64:, PEM text) or it is not a file at all.
func file(s Setting, pemText bool) string {
	v := strings.TrimSpace(s.Value)
	if pemText && isPEMText(v) {
		return ""
	}
	if rest, ok := strings.CutPrefix(v, "file:"); ok {
		return rest
	}
	if locationType.MatchString(v) {
		return ""
	}
	return v
}

// readLocation reads what the setting s names. pemText lets the value be
// the PEM text itself. A location that cannot be read is a fault of s;
// the reason does not repeat the path: the value shown beside it does,
// unless the key is one whose values are masked.
func readLocation(s Setting, pemText bool) ([]byte, error) {
	v := strings.TrimSpace(s.Value)
	if pemText && isPEMText(v) {
		return []byte(v), nil
	}
	if encoded, ok := strings.CutPrefix(v, "base64:"); ok {
		data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(encoded))
		if err != nil {
			return nil, fault(s, "base64: is not followed by base64 content: "+err.Error())
		}
		return data, nil
	}
	if strings.HasPrefix(v, "classpath:") {
		return nil, fault(s, "a Go service has no class path: give a file path (file:/path or /path)")
	}
	if m := locationType.FindStringSubmatch(v); m != nil && m[1] != "file" {
		return nil, fault(s, "the location type "+m[1]+": is not read: give a file path (file:/path or /path), or base64:<content>")
	}
	data, err := os.ReadFile(file(s, false))
	if err != nil {
		if pathErr, ok := errors.AsType[*fs.PathError](err); ok {
			err = pathErr.Err
		}
		return nil, fault(s, "cannot read the file: "+err.Error())
	}
	return data, nil
}

// unwatched returns those of settings that hold their content (base64:,
// PEM text) rather than name a file: content that reload-on-update cannot
// watch, as Spring Boot refuses to.
func unwatched(pemText bool, settings ...Setting) []Setting {
	var out []Setting
	for _, s := range settings {
		v := strings.TrimSpace(s.Value)
		if pemText && isPEMText(v) || strings.HasPrefix(v, "base64:") {
			out = append(out, s)
		}
	}
	return out
}
