package logfile

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A Pattern is a Logback file-name pattern, as Spring Boot's
// logging.logback.rollingpolicy.file-name-pattern gives it to
// SizeAndTimeBasedRollingPolicy: literal text, one %d{date pattern} that
// names the period (more may follow with the option aux), %i the index
// of an archive within its period, and a .gz or .zip suffix that
// compresses the archives.
type Pattern struct {
	text        string
	parts       []part
	primary     int // the index in parts of the %d that names the period
	period      period
	compression string // "", ".gz" or ".zip"
}

// A part is literal text, a %d, or %i.
type part struct {
	text  string
	date  *dateFormat
	index bool
}

// ParsePattern reads a file-name pattern. It refuses one that
// SizeAndTimeBasedRollingPolicy would not start with (no %d, no %i),
// and what this package does not write (a conversion other than %d and
// %i, an .xz suffix, a date letter it does not know).
func ParsePattern(s string) (*Pattern, error) {
	s = strings.TrimSpace(s)
	p := &Pattern{text: s, primary: -1}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			p.parts = append(p.parts, part{text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && s[i+1] == '%' {
			lit.WriteByte('%')
			i++
			continue
		}
		if c != '%' {
			lit.WriteByte(c)
			continue
		}
		flush()
		word := s[i+1:]
		switch {
		case strings.HasPrefix(word, "i"):
			p.parts = append(p.parts, part{index: true})
			i++
		case strings.HasPrefix(word, "d"):
			i++
			layout, options := "yyyy-MM-dd", ""
			if i+1 < len(s) && s[i+1] == '{' {
				end := strings.IndexByte(s[i+1:], '}')
				if end < 0 {
					return nil, fmt.Errorf("%%d{ is not closed by }")
				}
				layout, options, _ = strings.Cut(s[i+2:i+1+end], ",")
				layout = strings.TrimSpace(layout)
				i += end + 1
			}
			f, err := parseDateFormat(layout)
			if err != nil {
				return nil, err
			}
			f.loc = time.Local
			for _, o := range strings.Split(options, ",") {
				switch o = strings.TrimSpace(o); {
				case o == "":
				case strings.EqualFold(o, "aux"):
					f.aux = true
				default:
					if f.loc, err = time.LoadLocation(o); err != nil {
						return nil, fmt.Errorf("%%d{%s}: unknown time zone %q", layout, o)
					}
				}
			}
			if !f.aux {
				if p.primary >= 0 {
					return nil, errors.New("more than one %d names the period: mark the others %d{…, aux}, as Logback asks")
				}
				if f.period() == noPeriod {
					return nil, fmt.Errorf("%%d{%s} names no period (no year, month, day, hour… letter)", layout)
				}
				p.primary, p.period = len(p.parts), f.period()
			}
			p.parts = append(p.parts, part{date: &f})
		default:
			return nil, fmt.Errorf("%%%s: only %%d and %%i mean something in a file-name pattern (write \\%% for a %%)", firstWord(word))
		}
	}
	flush()
	if p.primary < 0 {
		return nil, errors.New("no %d: the time-based rolling policy Spring Boot uses needs the date of each archive's period, as in ${LOG_FILE}.%d{yyyy-MM-dd}.%i.gz")
	}
	if !strings.Contains(s, "%i") {
		return nil, errors.New("no %i: archives of one period are told apart by their index, as in ${LOG_FILE}.%d{yyyy-MM-dd}.%i.gz")
	}
	last := p.parts[len(p.parts)-1]
	for _, suffix := range []string{".gz", ".zip"} {
		if last.date == nil && !last.index && strings.HasSuffix(last.text, suffix) {
			p.compression = suffix
		}
	}
	if last.date == nil && !last.index && strings.HasSuffix(last.text, ".xz") {
		return nil, errors.New("the .xz suffix is not supported here: use .gz or .zip, or no suffix")
	}
	return p, nil
}

func firstWord(s string) string {
	end := strings.IndexFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') })
	if end < 0 {
		end = len(s)
	}
	return s[:max(end, min(1, len(s)))]
}

func (p *Pattern) String() string { return p.text }

// name is the archive of index i of the period that starts at start, with
// the compression suffix when compressed is set.
func (p *Pattern) name(start time.Time, i int, compressed bool) string {
	var b strings.Builder
	for _, pt := range p.parts {
		switch {
		case pt.date != nil:
			b.WriteString(pt.date.format(start))
		case pt.index:
			b.WriteString(strconv.Itoa(i))
		default:
			b.WriteString(pt.text)
		}
	}
	name := b.String()
	if !compressed {
		name = strings.TrimSuffix(name, p.compression)
	}
	return filepath.FromSlash(name)
}

// periodStart is the start of the period that holds t, in the zone of
// the primary %d.
func (p *Pattern) periodStart(t time.Time) time.Time {
	return p.period.start(t.In(p.parts[p.primary].date.loc))
}

// base is the folder every archive is under: the pattern's literal start,
// up to its last separator.
func (p *Pattern) base() string {
	lead := ""
	if p.parts[0].date == nil && !p.parts[0].index {
		lead = p.parts[0].text
	}
	return filepath.Dir(filepath.FromSlash(lead + "x"))
}

// matcher matches an archive's path relative to base (with forward
// slashes), compressed or not, capturing the primary date's fields and
// the index.
type matcher struct {
	re         *regexp.Regexp
	dateGroups int // the primary date's groups, after any before it
	dateFrom   int
	indexGroup int
}

func (p *Pattern) matcher() matcher {
	var b strings.Builder
	b.WriteString("^")
	base := filepath.ToSlash(p.base())
	m := matcher{}
	groups := 0
	for i, pt := range p.parts {
		switch {
		case pt.date != nil && i == p.primary:
			m.dateFrom = groups + 1
			m.dateGroups = pt.date.countLetters()
			groups += m.dateGroups
			b.WriteString(pt.date.regex(true))
		case pt.date != nil:
			b.WriteString(pt.date.regex(false))
		case pt.index:
			groups++
			if m.indexGroup == 0 {
				m.indexGroup = groups
				b.WriteString(`(\d+)`)
			} else {
				b.WriteString(`(\d+)`) // later %i repeat the first
			}
		default:
			text := pt.text
			if i == 0 {
				text = strings.TrimPrefix(filepath.ToSlash(text), base+"/")
				if base == "." {
					text = strings.TrimPrefix(text, "./")
				}
			}
			if i == len(p.parts)-1 && p.compression != "" {
				text = strings.TrimSuffix(text, p.compression)
				b.WriteString(regexp.QuoteMeta(text) + "(" + regexp.QuoteMeta(p.compression) + ")?")
				continue
			}
			b.WriteString(regexp.QuoteMeta(text))
		}
	}
	b.WriteString("$")
	m.re = regexp.MustCompile(b.String())
	return m
}

func (f dateFormat) countLetters() int {
	n := 0
	for _, fl := range f.fields {
		if fl.letter != 0 {
			n++
		}
	}
	return n
}

// match reads the relative path rel of a file under base: whether it is
// an archive, the start of its period, its index, and whether it is
// compressed.
func (p *Pattern) match(m matcher, rel string) (start time.Time, index int, compressed, ok bool) {
	sub := m.re.FindStringSubmatch(rel)
	if sub == nil {
		return time.Time{}, 0, false, false
	}
	t, ok := p.parts[p.primary].date.read(sub[m.dateFrom : m.dateFrom+m.dateGroups])
	if !ok {
		return time.Time{}, 0, false, false
	}
	index, err := strconv.Atoi(sub[m.indexGroup])
	if err != nil {
		return time.Time{}, 0, false, false
	}
	compressed = p.compression != "" && strings.HasSuffix(rel, p.compression)
	return p.period.start(t), index, compressed, true
}
