package config

// Random values follow Spring Boot's RandomValuePropertySource: a source
// named "random" that answers every key beginning "random." with a fresh
// random value, so that a setting can say x=${random.uuid}. After the
// prefix:
//
//	int          any 32-bit integer
//	long         any 64-bit integer
//	int(10)      0 <= n < 10 (the bound must be positive)
//	int[5,10]    5 <= n < 10 (the lower bound below the upper)
//	             (as in Spring, either bracket takes one bound or two)
//	long(…)      as int(…), with 64-bit bounds
//	long[…]      as int[…], with 64-bit bounds
//	uuid         a random (version 4) UUID
//	anything else, "value" by convention: 32 hex characters (16 bytes)
//
// Spring makes a new value every time a key is read. Here each distinct
// key gets its value the first time it is read and keeps it for the
// life of the process, so that ${random.int(10)} means one number
// wherever it appears and however often the setting is read (a greeting
// that changed between requests would be a surprise, not a feature).
//
// The values come from crypto/rand. Spring's documentation suggests
// ${random.value} for secrets, so a value must not be predictable from
// others; math/rand/v2 is used only for its unbiased arithmetic of ranges,
// over a crypto/rand source.

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	mathrand "math/rand/v2"
	"strconv"
	"strings"
	"sync"
)

const randomPrefix = "random."

// randomValues is the "random" source's memory: each key's value once it
// has been read.
type randomValues struct {
	mu     sync.Mutex
	values map[string]string
}

func newRandomSource() *source {
	s := newSource("random")
	s.random = &randomValues{values: map[string]string{}}
	return s
}

// lookup returns the value of key, which is fixed the first time it is
// asked for. A key outside "random." is not found; a malformed range
// (random.int(0), random.int[10,5], random.int(x)) is an error.
func (r *randomValues) lookup(key string) (Entry, bool, error) {
	kind, ok := strings.CutPrefix(key, randomPrefix)
	if !ok {
		return Entry{}, false, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.values[kind]
	if !ok {
		var err error
		if v, err = randomValue(kind); err != nil {
			return Entry{}, false, fmt.Errorf("%s: %w", key, err)
		}
		r.values[kind] = v
	}
	return Entry{Key: key, Value: v, Origin: "random"}, true, nil
}

// cryptoSource feeds math/rand/v2 from crypto/rand, which never fails (it
// ends the process instead, as of Go 1.24).
type cryptoSource struct{}

func (cryptoSource) Uint64() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

var random = mathrand.New(cryptoSource{})

// randomValue makes the value for kind, the key after "random.".
func randomValue(kind string) (string, error) {
	switch {
	case kind == "int":
		return strconv.FormatInt(int64(random.Int32()), 10), nil
	case kind == "long":
		return strconv.FormatInt(int64(random.Uint64()), 10), nil
	case strings.HasPrefix(kind, "int"):
		return randomInRange(kind[len("int"):], 32)
	case strings.HasPrefix(kind, "long"):
		return randomInRange(kind[len("long"):], 64)
	case kind == "uuid":
		return uuid4(), nil
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:]), nil
}

// uuid4 is a random UUID as RFC 9562 lays version 4 out.
func uuid4() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // the RFC's variant
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// errRandomRange lists the accepted forms, for every malformed range.
var errRandomRange = errors.New("want (max) with max > 0, for 0 <= n < max, or [min,max] with min < max, for min <= n < max")

// randomInRange reads "(max)" or "[min,max]" (either bracket, one bound or
// two) as integers of the given bit size and returns a number n with
// min <= n < max, min being 0 when only max is given.
func randomInRange(spec string, bits int) (string, error) {
	if len(spec) < 2 || !(spec[0] == '(' && spec[len(spec)-1] == ')' || spec[0] == '[' && spec[len(spec)-1] == ']') {
		return "", errRandomRange
	}
	parts := strings.Split(spec[1:len(spec)-1], ",")
	bounds := make([]int64, len(parts))
	for i, p := range parts {
		n, err := strconv.ParseInt(strings.TrimSpace(p), 10, bits)
		if err != nil {
			return "", errRandomRange
		}
		bounds[i] = n
	}
	var lo, hi int64
	switch len(bounds) {
	case 1:
		hi = bounds[0]
	case 2:
		lo, hi = bounds[0], bounds[1]
	default:
		return "", errRandomRange
	}
	if lo >= hi {
		return "", errRandomRange
	}
	// The span may exceed math.MaxInt64 (long[-9223372036854775808,1]);
	// as an unsigned number it cannot.
	span := uint64(hi) - uint64(lo)
	return strconv.FormatInt(lo+int64(random.Uint64N(span)), 10), nil
}
