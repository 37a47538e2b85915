package config

// Durations are read in three forms, so that a value written for Spring
// Boot, or by someone who knows Go, works as it is:
//
//   - Spring's simple form: a whole number and a unit (30s, 5m, 10d,
//     100ns); a bare number is milliseconds, Spring's default unit.
//   - Go's form: numbers each with a unit, as time.ParseDuration reads
//     them (1m30s, 1.5h, 250ms), with d for days as well.
//   - ISO-8601, as Java's Duration.parse reads it: PnDTnHnMn.nS (PT30S,
//     P1DT2H, PT0.5S), each part optionally signed.
//
// Units are ns, us (or µs), ms, s, m, h and d, in any case: 5M is five
// minutes, as in Spring, never five months.

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// durationForms is what a bad duration's reason lists.
const durationForms = "30s, 5m, 1m30s, 250ms, 100us, 10d (units ns, us, ms, s, m, h, d, in any case), ISO-8601 as PT30S or P1DT2H, or a bare number of milliseconds"

var errDurationSyntax = errors.New("not a duration")

// Duration parses a positive duration in any of the forms above. Zero and
// negative durations (-5s, -PT5M) are refused: every duration bound with
// it is a timeout or an interval.
func Duration(s string) (time.Duration, error) {
	d, err := parseDuration(s)
	if err != nil || d <= 0 {
		return 0, errors.New("want a positive duration such as " + durationForms)
	}
	return d, nil
}

// Timeout parses a timeout that a request, a command or a connection
// waits for: a duration (as Duration) of at least 100 ms. Shorter ones
// would parse, and leave no time for the work they bound.
var Timeout = DurationAtLeast(100 * time.Millisecond)

// DurationAtLeast returns a parser of durations (as Duration) no shorter
// than min: a timeout of 10ns parses, and makes a server refuse every
// request.
func DurationAtLeast(min time.Duration) func(string) (time.Duration, error) {
	return func(s string) (time.Duration, error) {
		d, err := Duration(s)
		if err == nil && d < min {
			err = fmt.Errorf("want at least %s: a shorter one leaves no time for the work it bounds", formatDuration(min))
		}
		return d, err
	}
}

// DurationOrZero is Duration, also allowing zero (0, 0s, PT0S) for "none".
func DurationOrZero(s string) (time.Duration, error) {
	d, err := parseDuration(s)
	if err != nil || d < 0 {
		return 0, errors.New("want zero or a positive duration such as " + durationForms)
	}
	return d, nil
}

// parseDuration reads s in any of the three forms, of either sign.
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return scaled(n, time.Millisecond)
	}
	if m := isoDuration().FindStringSubmatch(s); m != nil && !strings.HasSuffix(strings.ToUpper(s), "T") {
		return parseISODuration(m)
	}
	return parseUnits(s)
}

// parseUnits reads Spring's simple form and Go's: an optional sign, then
// numbers each followed by a unit.
func parseUnits(s string) (time.Duration, error) {
	t := strings.ToLower(s)
	negative := strings.HasPrefix(t, "-")
	t = strings.TrimLeft(t, "+-")
	if len(s)-len(t) > 1 || t == "" {
		return 0, errDurationSyntax
	}
	var total time.Duration
	for t != "" {
		numEnd := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
		if numEnd <= 0 {
			return 0, errDurationSyntax // a unit without a number, or a number without a unit
		}
		unitEnd := strings.IndexFunc(t[numEnd:], func(r rune) bool { return r >= '0' && r <= '9' || r == '.' })
		if unitEnd < 0 {
			unitEnd = len(t) - numEnd
		}
		num, unit := t[:numEnd], t[numEnd:numEnd+unitEnd]
		t = t[numEnd+unitEnd:]
		// time.ParseDuration does the arithmetic, fractions and overflow
		// included; only days are Spring's, not Go's.
		var d time.Duration
		var err error
		switch unit {
		case "d":
			if d, err = time.ParseDuration(num + "h"); err == nil && d > math.MaxInt64/24 {
				err = errDurationSyntax
			}
			d *= 24
		case "ns", "us", "µs", "μs", "ms", "s", "m", "h":
			d, err = time.ParseDuration(num + unit)
		default:
			err = errDurationSyntax
		}
		if err != nil || total > math.MaxInt64-d {
			return 0, errDurationSyntax
		}
		total += d
	}
	if negative {
		total = -total
	}
	return total, nil
}

// isoDuration is java.time.Duration's pattern: days, then after T hours,
// minutes and seconds with up to nine decimals, any of them signed. It is
// compiled at its first use, not at start-up, where every duration set is
// usually written in Spring's simple form ("30s").
var isoDuration = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^([-+]?)P(?:([-+]?[0-9]+)D)?(?:T(?:([-+]?[0-9]+)H)?(?:([-+]?[0-9]+)M)?(?:([-+]?[0-9]+)(?:[.,]([0-9]{0,9}))?S)?)?$`)
})

// parseISODuration adds up the parts isoDuration matched.
func parseISODuration(m []string) (time.Duration, error) {
	if m[2] == "" && m[3] == "" && m[4] == "" && m[5] == "" {
		return 0, errDurationSyntax // "P" alone
	}
	var total time.Duration
	for i, unit := range []time.Duration{2: 24 * time.Hour, 3: time.Hour, 4: time.Minute, 5: time.Second} {
		if i < 2 || m[i] == "" {
			continue
		}
		n, err := strconv.ParseInt(m[i], 10, 64)
		if err != nil {
			return 0, errDurationSyntax
		}
		d, err := scaled(n, unit)
		if err != nil || (d > 0 && total > math.MaxInt64-d) || (d < 0 && total < math.MinInt64-d) {
			return 0, errDurationSyntax
		}
		total += d
	}
	if frac := m[6]; frac != "" {
		nanos, _ := strconv.ParseInt((frac + "000000000")[:9], 10, 64)
		if strings.HasPrefix(m[5], "-") {
			nanos = -nanos
		}
		if (nanos > 0 && total > math.MaxInt64-time.Duration(nanos)) || (nanos < 0 && total < math.MinInt64-time.Duration(nanos)) {
			return 0, errDurationSyntax
		}
		total += time.Duration(nanos)
	}
	if m[1] == "-" {
		total = -total
	}
	return total, nil
}

// scaled is n units, or an error when that does not fit a Duration.
func scaled(n int64, unit time.Duration) (time.Duration, error) {
	if n > math.MaxInt64/int64(unit) || n < math.MinInt64/int64(unit) {
		return 0, errDurationSyntax
	}
	return time.Duration(n) * unit, nil
}

// formatDuration writes d as a setting would be written: the largest of
// d, h, m, s, ms that divides it, so 30s rather than 30000ms or 0h0m30s.
func formatDuration(d time.Duration) string {
	for _, u := range []struct {
		unit   time.Duration
		suffix string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}, {time.Millisecond, "ms"}} {
		if d != 0 && d%u.unit == 0 {
			return strconv.FormatInt(int64(d/u.unit), 10) + u.suffix
		}
	}
	return d.String()
}

// FormatJavaDuration writes d as java.time.Duration's toString does
// (PT1H30M, PT0.023S, PT0S; a negative duration signs each part,
// PT-1H-30M), which is how Spring's JSON shows a Duration.
func FormatJavaDuration(d time.Duration) string {
	if d == 0 {
		return "PT0S"
	}
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	var b strings.Builder
	b.WriteString("PT")
	if h := d / time.Hour; h > 0 {
		b.WriteString(sign + strconv.FormatInt(int64(h), 10) + "H")
		d -= h * time.Hour
	}
	if m := d / time.Minute; m > 0 {
		b.WriteString(sign + strconv.FormatInt(int64(m), 10) + "M")
		d -= m * time.Minute
	}
	if d > 0 {
		secs := strconv.FormatFloat(d.Seconds(), 'f', 9, 64)
		b.WriteString(sign + strings.TrimRight(strings.TrimRight(secs, "0"), ".") + "S")
	}
	return b.String()
}
