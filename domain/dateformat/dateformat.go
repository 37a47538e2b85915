// Package dateformat holds the date-format provider: how the service
// writes instants. Two implementations exist, chosen by profile where the
// components are declared: a short locale-style format for development and
// ISO-8601 everywhere else.
package dateformat

import "time"

// Provider formats instants in one fixed format.
type Provider interface {
	// Format writes t in the provider's format.
	Format(t time.Time) string
	// Now writes the current instant, read from the provider's clock.
	Now() string
}

// Simple is the format of Java's new SimpleDateFormat() in the en_US
// locale, "M/d/yy, h:mm a": 1/1/70, 12:00 AM. Instants are shown in UTC.
type Simple struct {
	Clock func() time.Time
}

// Format writes t as M/d/yy, h:mm a.
func (Simple) Format(t time.Time) string { return t.UTC().Format("1/2/06, 3:04 PM") }

// Now writes the clock's current instant.
func (s Simple) Now() string { return s.Format(now(s.Clock)) }

// ISO is ISO-8601 with milliseconds and offset, in UTC, as Jackson's
// StdDateFormat writes it: 1970-01-01T00:00:00.000+00:00.
type ISO struct {
	Clock func() time.Time
}

// Format writes t as yyyy-MM-dd'T'HH:mm:ss.SSSXXX in UTC.
func (ISO) Format(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000") + "+00:00"
}

// Now writes the clock's current instant.
func (i ISO) Now() string { return i.Format(now(i.Clock)) }

func now(clock func() time.Time) time.Time {
	if clock == nil {
		return time.Now()
	}
	return clock()
}
