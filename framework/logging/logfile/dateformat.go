package logfile

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A dateFormat is the date pattern of a %d token, in Java's
// SimpleDateFormat letters as Logback reads it (yyyy-MM-dd, HH, ww…): the
// subset that names a period, written, matched and read back here.
type dateFormat struct {
	fields []dateField
	loc    *time.Location
	aux    bool // %d{…, aux}: part of the name, not the period
}

// A dateField is a run of one pattern letter (yyyy) or literal text.
type dateField struct {
	letter byte // 0 for literal text
	count  int
	text   string // the literal
}

// letterPeriods gives the period each letter changes with; a pattern's
// period is the shortest of its letters', as Logback's RollingCalendar
// finds it.
var letterPeriods = map[byte]period{
	'S': millisecond, 's': second, 'm': minute,
	'H': hour, 'k': hour, 'K': hour, 'h': hour, 'a': halfDay,
	'd': day, 'D': day, 'E': day, 'u': day,
	'w': week, 'M': month, 'L': month, 'y': year, 'Y': year,
	// Zones name no period.
	'Z': noPeriod, 'X': noPeriod, 'z': noPeriod,
}

// parseDateFormat reads a SimpleDateFormat pattern: letters, and literal
// text between single quotes (two quotes in a row are one).
func parseDateFormat(s string) (dateFormat, error) {
	var f dateFormat
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'':
			end := i + 1
			var lit strings.Builder
			for {
				if end >= len(s) {
					return f, fmt.Errorf("date pattern %q: a quote is not closed", s)
				}
				if s[end] == '\'' {
					if end+1 < len(s) && s[end+1] == '\'' {
						lit.WriteByte('\'')
						end += 2
						continue
					}
					break
				}
				lit.WriteByte(s[end])
				end++
			}
			if end == i+1 {
				lit.WriteByte('\'') // '' outside quotes is a quote
			}
			f.fields = append(f.fields, dateField{text: lit.String()})
			i = end + 1
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			if _, ok := letterPeriods[c]; !ok {
				return f, fmt.Errorf("date pattern %q: the letter %c is not supported here (use y Y M d H m s S a E u D w k K h Z X z)", s, c)
			}
			n := 1
			for i+n < len(s) && s[i+n] == c {
				n++
			}
			f.fields = append(f.fields, dateField{letter: c, count: n})
			i += n
		default:
			f.fields = append(f.fields, dateField{text: string(c)})
			i++
		}
	}
	return f, nil
}

// period is the shortest period whose end changes what f writes.
func (f dateFormat) period() period {
	p := noPeriod
	for _, fl := range f.fields {
		if lp := letterPeriods[fl.letter]; fl.letter != 0 && lp != noPeriod && (p == noPeriod || lp < p) {
			p = lp
		}
	}
	if p == halfDay && f.has('H', 'k', 'K', 'h') {
		p = hour
	}
	return p
}

func (f dateFormat) has(letters ...byte) bool {
	for _, fl := range f.fields {
		for _, l := range letters {
			if fl.letter == l {
				return true
			}
		}
	}
	return false
}

// format writes t as SimpleDateFormat would, in f's zone.
func (f dateFormat) format(t time.Time) string {
	t = t.In(f.loc)
	var b strings.Builder
	for _, fl := range f.fields {
		n := fl.count
		switch fl.letter {
		case 0:
			b.WriteString(fl.text)
		case 'y', 'Y':
			y := t.Year()
			if fl.letter == 'Y' || f.has('w') {
				// The week's year, so that the last days of December in
				// week 1 are not named as the January before them.
				y, _ = t.ISOWeek()
			}
			if n == 2 {
				pad(&b, y%100, 2)
			} else {
				pad(&b, y, n)
			}
		case 'M', 'L':
			switch {
			case n >= 4:
				b.WriteString(t.Month().String())
			case n == 3:
				b.WriteString(t.Month().String()[:3])
			default:
				pad(&b, int(t.Month()), n)
			}
		case 'd':
			pad(&b, t.Day(), n)
		case 'D':
			pad(&b, t.YearDay(), n)
		case 'H':
			pad(&b, t.Hour(), n)
		case 'k':
			pad(&b, (t.Hour()+23)%24+1, n)
		case 'K':
			pad(&b, t.Hour()%12, n)
		case 'h':
			pad(&b, (t.Hour()+11)%12+1, n)
		case 'm':
			pad(&b, t.Minute(), n)
		case 's':
			pad(&b, t.Second(), n)
		case 'S':
			pad(&b, t.Nanosecond()/int(time.Millisecond), n)
		case 'a':
			b.WriteString(t.Format("PM"))
		case 'E':
			if n >= 4 {
				b.WriteString(t.Weekday().String())
			} else {
				b.WriteString(t.Weekday().String()[:3])
			}
		case 'u':
			pad(&b, (int(t.Weekday())+6)%7+1, n)
		case 'w':
			_, w := t.ISOWeek()
			pad(&b, w, n)
		case 'Z':
			b.WriteString(t.Format("-0700"))
		case 'X':
			switch n {
			case 1:
				b.WriteString(t.Format("Z07"))
			case 2:
				b.WriteString(t.Format("Z0700"))
			default:
				b.WriteString(t.Format("Z07:00"))
			}
		case 'z':
			b.WriteString(t.Format("MST"))
		}
	}
	return b.String()
}

func pad(b *strings.Builder, v, width int) {
	s := strconv.Itoa(v)
	for i := len(s); i < width; i++ {
		b.WriteByte('0')
	}
	b.WriteString(s)
}

// widths are the most digits a numeric letter writes.
var widths = map[byte]int{'y': 4, 'Y': 4, 'M': 2, 'L': 2, 'd': 2, 'D': 3, 'H': 2, 'k': 2, 'K': 2, 'h': 2, 'm': 2, 's': 2, 'S': 3, 'u': 1, 'w': 2}

// regex is the regular expression of what f writes: each field a group
// (capturing when capture is set, for read), in order.
func (f dateFormat) regex(capture bool) string {
	var b strings.Builder
	open := "(?:"
	if capture {
		open = "("
	}
	for _, fl := range f.fields {
		if fl.letter == 0 {
			b.WriteString(regexp.QuoteMeta(fl.text))
			continue
		}
		b.WriteString(open)
		switch {
		case (fl.letter == 'y' || fl.letter == 'Y') && fl.count == 2:
			b.WriteString(`\d{2}`)
		case fl.letter == 'y' || fl.letter == 'Y':
			fmt.Fprintf(&b, `\d{%d,}`, min(fl.count, 4))
		case widths[fl.letter] > 0 && (fl.letter != 'M' && fl.letter != 'L' || fl.count < 3):
			fmt.Fprintf(&b, `\d{%d,%d}`, min(fl.count, widths[fl.letter]), max(fl.count, widths[fl.letter]))
		case fl.letter == 'Z' || fl.letter == 'X':
			b.WriteString(`[-+Z0-9:]+`)
		default: // names: months, days, AM/PM, zones
			b.WriteString(`[A-Za-z]+`)
		}
		b.WriteString(")")
	}
	return b.String()
}

// read returns the time that values, the groups regex(true) captured,
// stand for, to the precision of f's period: enough to know which period
// an archive is of.
func (f dateFormat) read(values []string) (time.Time, bool) {
	year, month, dayOfMonth, yearDay, hour, minute, sec, milli, week := 1970, 1, 1, 0, 0, 0, 0, 0, 0
	pm, twelve := false, false
	i := 0
	for _, fl := range f.fields {
		if fl.letter == 0 {
			continue
		}
		v := values[i]
		i++
		n, err := strconv.Atoi(v)
		numeric := err == nil
		switch fl.letter {
		case 'y', 'Y':
			if !numeric {
				return time.Time{}, false
			}
			year = n
			if fl.count == 2 {
				year = 2000 + n
			}
		case 'M', 'L':
			if numeric {
				month = n
				break
			}
			month = 0
			for m := time.January; m <= time.December; m++ {
				if strings.EqualFold(v, m.String()) || strings.EqualFold(v, m.String()[:3]) {
					month = int(m)
				}
			}
			if month == 0 {
				return time.Time{}, false
			}
		case 'd':
			dayOfMonth = n
		case 'D':
			yearDay = n
		case 'H', 'k':
			hour = n % 24
		case 'K', 'h':
			hour, twelve = n%12, true
		case 'm':
			minute = n
		case 's':
			sec = n
		case 'S':
			milli = n
		case 'a':
			pm = strings.EqualFold(v, "PM")
		case 'w':
			week = n
		}
	}
	if pm && (twelve || !f.has('H', 'k')) {
		hour += 12
	}
	t := time.Date(year, time.Month(month), dayOfMonth, hour, minute, sec, milli*int(time.Millisecond), f.loc)
	switch {
	case yearDay > 0:
		t = time.Date(year, 1, yearDay, hour, minute, sec, 0, f.loc)
	case week > 0:
		// Monday of ISO week 1 is the Monday on or before 4 January.
		jan4 := time.Date(year, 1, 4, 0, 0, 0, 0, f.loc)
		t = jan4.AddDate(0, 0, -((int(jan4.Weekday())+6)%7)+(week-1)*7)
	}
	return t, true
}
