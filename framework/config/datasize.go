package config

// Data sizes are read as Spring's DataSize reads them: a whole number
// with a unit B, KB, MB, GB or TB, in any case and with spaces allowed
// between (512KB, 10 mb), or a bare number of bytes. The units are binary,
// as in Spring: 1KB is 1024 bytes, 1MB 1024 KB.

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// ByteSize is a number of bytes. It prints as a setting would be
// written (1MB), which is what --help shows as a default.
type ByteSize int64

// dataUnits are Spring's DataUnit suffixes, largest first.
var dataUnits = []struct {
	suffix string
	size   int64
}{{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}}

func (b ByteSize) String() string {
	for _, u := range dataUnits {
		if b != 0 && int64(b)%u.size == 0 {
			return strconv.FormatInt(int64(b)/u.size, 10) + u.suffix
		}
	}
	return "0B"
}

// DataSize parses a positive size: every size bound with it is a limit.
func DataSize(s string) (ByteSize, error) {
	bad := errors.New("want a positive size: a number of bytes, or a whole number with B, KB, MB, GB or TB (any case; 1KB = 1024 bytes), as 512KB or 10MB")
	// Spring removes every space, inside as well.
	s = strings.ToUpper(strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s))
	unit := int64(1)
	for _, u := range dataUnits {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			s, unit = n, u.size
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/unit {
		return 0, bad
	}
	return ByteSize(n * unit), nil
}
