package logfile

import (
	"strings"
	"testing"
	"time"
)

// TestParsePattern: the patterns Spring users write, with the period
// their %d names and the compression their suffix asks for; and the
// ones refused, each saying why.
func TestParsePattern(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 3, 7, 14, 5, 9, 0, time.UTC)
	for _, c := range []struct {
		pattern, name string
		period        period
		compression   string
	}{
		{"/var/log/app.log.%d{yyyy-MM-dd, UTC}.%i.gz", "/var/log/app.log.2025-03-07.4.gz", day, ".gz"},
		{"/var/log/app.log.%d.%i.gz", "/var/log/app.log." + at.In(time.Local).Format("2006-01-02") + ".4.gz", day, ".gz"},
		{"logs/app-%d{yyyy-MM-dd_HH,UTC}.%i.log", "logs/app-2025-03-07_14.4.log", hour, ""},
		{"logs/%d{yyyy/MM, aux, UTC}/app.%d{yyyy-MM-dd, UTC}.%i.zip", "logs/2025/03/app.2025-03-07.4.zip", day, ".zip"},
		{"a-%d{yyyy-MM-dd-HH-mm-ss, UTC}-%i.log", "a-2025-03-07-14-05-09-4.log", second, ""},
		{"a.%d{yyyy-MM, UTC}.%i", "a.2025-03.4", month, ""},
		{"a.%d{yyyy-'W'ww, UTC}.%i", "a.2025-W10.4", week, ""},
		{"a.%d{yyyyMMdd'T'HHmm, UTC}.%i.gz", "a.20250307T1405.4.gz", minute, ".gz"},
		{"a.%d{yy-MMM-d a, UTC}.%i", "a.25-Mar-7 PM.4", halfDay, ""},
		{`a\%.%d{yyyy, UTC}.%i`, "a%.2025.4", year, ""},
	} {
		p, err := ParsePattern(c.pattern)
		if err != nil {
			t.Errorf("%s: %v", c.pattern, err)
			continue
		}
		if got := p.name(at, 4, true); got != c.name {
			t.Errorf("%s: name %q, want %q", c.pattern, got, c.name)
		}
		if p.period != c.period || p.compression != c.compression {
			t.Errorf("%s: period %d compression %q, want %d %q", c.pattern, p.period, p.compression, c.period, c.compression)
		}
		if got := p.name(at, 4, false); got != strings.TrimSuffix(c.name, c.compression) {
			t.Errorf("%s: uncompressed name %q", c.pattern, got)
		}
	}
	for pattern, reason := range map[string]string{
		"app.%i.gz":                         "no %d",
		"app.%d.gz":                         "no %i",
		"app.%d.%i.%x":                      "only %d and %i",
		"app.%d{yyyy}.%d{MM}.%i":            "more than one %d",
		"app.%d.%i.xz":                      ".xz",
		"app.%d{yyyy-GG}.%i":                "letter G",
		"app.%d{yyyy, Mars/Olympus}.%i":     "time zone",
		"app.%d{'}.%i":                      "quote",
		"app.%d{yyyy-MM-dd.%i":              "not closed",
		"app.%d{ZZ, aux}.%d{'x', aux}.%i":   "no %d",
		"app.%d{'literal'}.%i":              "names no period",
		"app.%d{yyyy-MM-dd, aux}-%i.log":    "no %d",
		"app.%d{yyyy-MM-dd} %d{HH, aux}.gz": "no %i",
	} {
		if _, err := ParsePattern(pattern); err == nil || !strings.Contains(err.Error(), reason) {
			t.Errorf("%s: %v, want an error saying %q", pattern, err, reason)
		}
	}
}

// TestMatchReadsNamesBack: every archive name a pattern writes is read
// back as its period and index, compressed or not, and other files are
// not taken for archives.
func TestMatchReadsNamesBack(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 12, 31, 23, 59, 58, 0, time.UTC)
	for _, pattern := range []string{
		"/l/app.log.%d{yyyy-MM-dd, UTC}.%i.gz",
		"/l/app-%d{yyyy-MM-dd_HH, UTC}.%i.log",
		"/l/%d{yyyy/MM, aux, UTC}/app.%d{yyyy-MM-dd, UTC}.%i.zip",
		"/l/a.%d{yyyyMMddHHmmss, UTC}.%i",
		"/l/a.%d{yyyy-'W'ww, UTC}.%i",
		"/l/a.%d{yy-MMMM-dd hh a, UTC}.%i.gz",
		"/l/a.%d{yyyy-DDD, UTC}.%i",
		"/l/a.%d{yyyy-MM, UTC}.%i",
	} {
		p, err := ParsePattern(pattern)
		if err != nil {
			t.Fatal(err)
		}
		m := p.matcher()
		for _, when := range []time.Time{at, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 6, 15, 11, 30, 0, 0, time.UTC)} {
			start := p.periodStart(when)
			for _, compressed := range []bool{true, false} {
				rel := strings.TrimPrefix(p.name(start, 12, compressed), "/l/")
				got, index, gotCompressed, ok := p.match(m, rel)
				if !ok || !got.Equal(start) || index != 12 || gotCompressed != (compressed && p.compression != "") {
					t.Errorf("%s: %q read as %v %d %v %v, want %v 12", pattern, rel, got, index, gotCompressed, ok, start)
				}
			}
		}
		for _, other := range []string{"app.log", "app.log.2025-01-01.x.gz", "app.log.tmp", "notes.txt"} {
			if _, _, _, ok := p.match(m, other); ok {
				t.Errorf("%s: %q taken for an archive", pattern, other)
			}
		}
	}
}
