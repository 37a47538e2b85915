package dispatch

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
)

// Violation is one thing wrong with a request's content: a body member or a
// parameter that breaks a constraint. A problem document lists the
// violations of a request in its errors member, as RFC 9457 §3's example
// does, so that a client learns of every fault at once.
type Violation struct {
	// Detail says what is wrong, in Hibernate Validator's words: "must not
	// be blank", "size must be between 1 and 64".
	Detail string `json:"detail"`
	// Pointer is the body member at fault, as a JSON Pointer (RFC 6901)
	// in URI fragment form: "#/items/0/count" (see Pointer). Empty for a
	// parameter's violation.
	Pointer string `json:"pointer,omitempty"`
	// Parameter names the path variable or query parameter at fault;
	// empty for a body member's violation.
	Parameter string `json:"parameter,omitempty"`
}

// InvalidContent is the detail of a problem document that lists
// violations, as Spring's MethodArgumentNotValidException words it.
const InvalidContent = "Invalid request content."

// MaxViolations is the most violations that the 400 answering a
// request's faults lists. Checking a body stops at the one past it, so
// that neither the answer nor the work of checking grows with a body
// built to break thousands of constraints; the detail is then
// InvalidContentCut.
const MaxViolations = 100

// InvalidContentCut is the detail of a problem document that lists the
// first MaxViolations violations of a request that has more.
const InvalidContentCut = "Invalid request content; the first 100 of more violations are listed."

// Invalid returns the 400 that lists violations, for a handler that finds
// faults the declared constraints cannot, such as a name already taken:
//
//	return dispatch.Invalid(dispatch.Violation{Pointer: dispatch.Pointer("name"), Detail: "is already taken"})
//
// Another status (409, 422) is an Error with Violations of one's own.
func Invalid(violations ...Violation) *Error {
	return &Error{Status: http.StatusBadRequest, Detail: InvalidContent, Violations: violations}
}

// Pointer returns the JSON Pointer to a body member in the URI fragment
// form that problem documents use: Pointer("items", 0, "count") is
// "#/items/0/count". Tokens are JSON member names (strings) and array
// indexes (integers); "~" and "/" in a name are escaped as RFC 6901 says,
// and what a URI fragment cannot hold is percent-encoded.
func Pointer(tokens ...any) string {
	var b strings.Builder
	b.WriteByte('#')
	for _, t := range tokens {
		b.WriteByte('/')
		switch t := t.(type) {
		case string:
			writeToken(&b, t)
		case int:
			b.WriteString(strconv.Itoa(t))
		case int64:
			b.WriteString(strconv.FormatInt(t, 10))
		case int32:
			b.WriteString(strconv.FormatInt(int64(t), 10))
		case uint:
			b.WriteString(strconv.FormatUint(uint64(t), 10))
		default:
			writeToken(&b, "?")
		}
	}
	return b.String()
}

// writeToken writes one reference token: ~ and / escaped as ~0 and ~1
// (RFC 6901 §3), then every byte that a URI fragment may not hold
// percent-encoded (RFC 6901 §6, RFC 3986 §3.5).
func writeToken(b *strings.Builder, token string) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(token); i++ {
		switch c := token[i]; {
		case c == '~':
			b.WriteString("~0")
		case c == '/':
			b.WriteString("~1")
		case fragmentSafe(c):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
}

// fragmentSafe reports whether c may stand for itself in a URI fragment:
// an unreserved character, a sub-delimiter, ':', '@' or '?'.
func fragmentSafe(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=:@?", c) >= 0
}

// paramFault is what is wrong with one parameter of a request. The faults
// a parameter could have before constraints existed (absent, repeated, not
// converted, below its Min) keep the answer they had, alone, when the
// request has no other fault: a detail naming the parameter, which
// services' clients (and greeter's comparison with Spring) rely on.
type paramFault struct {
	violations []Violation
	alone      *Error // the answer when it is the request's only fault; nil for a constraint's
}

func (f *paramFault) Error() string {
	if f.alone != nil {
		return f.alone.Detail
	}
	return describeViolations(f.violations)
}

func (f *paramFault) Unwrap() error {
	if f.alone == nil {
		return nil // not a nil *Error in an interface
	}
	return f.alone
}

// legacyFault is a fault that is answered as sentence when alone, and
// listed as detail beside others.
func (s *inputSpec) legacyFault(sentence, detail string) *paramFault {
	return legacyFault(s.name, sentence, detail)
}

// legacyFault is the fault of the parameter name, answered as sentence
// when alone and listed as detail beside others.
func legacyFault(name, sentence, detail string) *paramFault {
	return &paramFault{
		violations: []Violation{{Detail: detail, Parameter: name}},
		alone:      badRequest(sentence),
	}
}

// addFault adds a parameter's conversion error to faults. An error that
// is not a parameter's own (a malformed query string, which is every
// parameter's) is returned, to be answered as it is.
func addFault(faults []*paramFault, err error) ([]*paramFault, error) {
	var f *paramFault
	if !errors.As(err, &f) {
		return faults, err
	}
	return append(faults, f), nil
}

// answerFaults is the error that answers a request's faults: the one
// parameter's own answer when it is the only fault and has one, else the
// 400 listing every violation, the parameters' first, up to
// MaxViolations.
func answerFaults(faults []*paramFault, body []Violation) error {
	if len(faults) == 1 && len(body) == 0 && faults[0].alone != nil {
		return faults[0].alone
	}
	var all []Violation
	for _, f := range faults {
		all = append(all, f.violations...)
	}
	e := Invalid(append(all, body...)...)
	if len(e.Violations) > MaxViolations {
		e.Violations, e.Detail = e.Violations[:MaxViolations], InvalidContentCut
	}
	return e
}

// orFaults returns the parameters' faults in place of err, a failure to
// read the body whose constraints would have been reported beside them:
// what is known to be wrong is reported rather than lost.
func (c *call) orFaults(err error) error {
	if c.faults != nil {
		return answerFaults(c.faults, nil)
	}
	return err
}

// describeViolations is violations as one line, for logs.
func describeViolations(vs []Violation) string {
	var b strings.Builder
	for i, v := range vs {
		if i > 0 {
			b.WriteString("; ")
		}
		switch {
		case v.Parameter != "":
			b.WriteString("parameter '" + v.Parameter + "' ")
		case v.Pointer != "":
			b.WriteString(v.Pointer + " ")
		}
		b.WriteString(v.Detail)
	}
	return b.String()
}
