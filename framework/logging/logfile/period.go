package logfile

import "time"

// A period is how long the archives of one %d value cover: Logback's
// PeriodicityType, found from the date pattern's letters.
type period int

const (
	noPeriod period = iota
	millisecond
	second
	minute
	hour
	halfDay
	day
	week
	month
	year
)

// start is the start of the period that holds t, in t's zone.
func (p period) start(t time.Time) time.Time {
	y, mo, d := t.Date()
	loc := t.Location()
	switch p {
	case millisecond:
		return t.Truncate(time.Millisecond)
	case second:
		return time.Date(y, mo, d, t.Hour(), t.Minute(), t.Second(), 0, loc)
	case minute:
		return time.Date(y, mo, d, t.Hour(), t.Minute(), 0, 0, loc)
	case hour:
		return time.Date(y, mo, d, t.Hour(), 0, 0, 0, loc)
	case halfDay:
		return time.Date(y, mo, d, t.Hour()/12*12, 0, 0, 0, loc)
	case day:
		return time.Date(y, mo, d, 0, 0, 0, 0, loc)
	case week:
		// ISO weeks, from Monday (Java's depend on the locale).
		return time.Date(y, mo, d-(int(t.Weekday())+6)%7, 0, 0, 0, 0, loc)
	case month:
		return time.Date(y, mo, 1, 0, 0, 0, 0, loc)
	case year:
		return time.Date(y, 1, 1, 0, 0, 0, 0, loc)
	}
	return t
}

// add returns the start of the period n periods after the one that
// starts at start (n may be negative).
func (p period) add(start time.Time, n int) time.Time {
	switch p {
	case millisecond:
		return start.Add(time.Duration(n) * time.Millisecond)
	case second:
		return start.Add(time.Duration(n) * time.Second)
	case minute:
		return start.Add(time.Duration(n) * time.Minute)
	case hour:
		// By the clock's hours, so that a change of offset keeps whole hours.
		return p.start(start.Add(time.Duration(n) * time.Hour))
	case halfDay:
		y, mo, d := start.Date()
		return time.Date(y, mo, d, start.Hour()+12*n, 0, 0, 0, start.Location())
	case day:
		return start.AddDate(0, 0, n)
	case week:
		return start.AddDate(0, 0, 7*n)
	case month:
		return start.AddDate(0, n, 0)
	case year:
		return start.AddDate(n, 0, 0)
	}
	return start
}
