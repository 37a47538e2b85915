package conformance_test

// Comparing two answers to the same request: which parts are compared,
// how each is normalized, and how a difference is named (its aspect).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// answer is one response, its body read, with the application's own base
// URL (http://127.0.0.1:PORT) written {base} in headers and body, so that
// two applications on two ports answer alike.
type answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// comparedHeaders are the headers that matter to a client: negotiation,
// methods, redirects, authentication, caching and the security headers,
// and greeter's paging. Others (Date, Content-Length against chunked
// transfer, X-Request-Id, Keep-Alive, Connection) are the servers', not
// the application's.
var comparedHeaders = []string{
	"Content-Type", "Vary", "Allow", "Accept", "Location", "WWW-Authenticate",
	"Cache-Control", "Pragma", "Expires",
	"X-Content-Type-Options", "X-Frame-Options", "X-XSS-Protection",
	"Strict-Transport-Security", "Content-Security-Policy", "Referrer-Policy",
	"X-Total-Count", "Link", "Content-Language", "Content-Disposition",
	"Set-Cookie",
}

// difference is one aspect of one case where two answers differ.
type difference struct {
	Case    string // the corpus case, or what else was compared
	Aspect  string // status, header:Name, body, body:$.member
	Greeter string // greeter's side, normalized
	Spring  string // Spring's
}

func (d difference) String() string {
	return fmt.Sprintf("%s %s: greeter %s, Spring %s", d.Case, d.Aspect, d.Greeter, d.Spring)
}

// absent is how a missing header or member is shown.
const absent = "(absent)"

// compareAnswers lists where a (greeter's) and b (Spring's) differ.
func compareAnswers(c exchange, a, b answer) []difference {
	var out []difference
	add := func(aspect, x, y string) {
		out = append(out, difference{Case: c.Name, Aspect: aspect, Greeter: x, Spring: y})
	}
	if a.Status != b.Status {
		add("status", strconv.Itoa(a.Status), strconv.Itoa(b.Status))
	}
	for _, name := range comparedHeaders {
		x, y := headerValue(a.Header, name), headerValue(b.Header, name)
		if x != y {
			add("header:"+name, x, y)
		}
	}
	for _, d := range compareBodies(c, a, b) {
		add(d[0], d[1], d[2])
	}
	return out
}

// headerValue is the header's values normalized: a media type's type and
// parameter names in lower case, its charset in upper case; the members of
// a list header (Vary, Allow) as a sorted set; other values as sent,
// several joined by " | ".
func headerValue(h http.Header, name string) string {
	vs := h.Values(name)
	if len(vs) == 0 {
		return absent
	}
	switch name {
	case "Content-Type":
		return mediaType(strings.Join(vs, ", "))
	case "Vary", "Allow":
		set := map[string]bool{}
		for _, v := range vs {
			for _, m := range strings.Split(v, ",") {
				if m = strings.TrimSpace(m); m != "" {
					if name == "Vary" {
						m = strings.ToLower(m)
					} else {
						m = strings.ToUpper(m)
					}
					set[m] = true
				}
			}
		}
		members := make([]string, 0, len(set))
		for m := range set {
			members = append(members, m)
		}
		sort.Strings(members)
		return strings.Join(members, ", ")
	case "Set-Cookie":
		// The cookie's name and attributes; its value (a session's id)
		// and an Expires date differ by nature.
		cs := []string{}
		for _, v := range vs {
			parts := strings.Split(v, ";")
			name, _, _ := strings.Cut(strings.TrimSpace(parts[0]), "=")
			attrs := []string{}
			for _, a := range parts[1:] {
				a = strings.TrimSpace(a)
				k, val, _ := strings.Cut(a, "=")
				if strings.EqualFold(k, "Expires") {
					val = "{date}"
				}
				attrs = append(attrs, strings.ToLower(k)+"="+val)
			}
			sort.Strings(attrs)
			cs = append(cs, name+"; "+strings.Join(attrs, "; "))
		}
		sort.Strings(cs)
		return strings.Join(cs, " | ")
	case "Accept":
		ts := []string{}
		for _, v := range vs {
			for _, t := range strings.Split(v, ",") {
				ts = append(ts, mediaType(strings.TrimSpace(t)))
			}
		}
		return strings.Join(ts, ", ")
	}
	return strings.Join(vs, " | ")
}

// mediaType normalizes one media type; what does not parse is kept as sent.
func mediaType(v string) string {
	t, params, err := mime.ParseMediaType(v)
	if err != nil {
		return v
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := params[k]
		if k == "charset" {
			p = strings.ToUpper(p)
		}
		t += ";" + k + "=" + p
	}
	return t
}

// isJSON says whether a Content-Type is JSON (application/json, or a
// +json type such as application/problem+json).
func isJSON(ct string) bool {
	t, _, _ := mime.ParseMediaType(ct)
	return t == "application/json" || strings.HasSuffix(t, "+json")
}

// digits, in a body compared by shape, are values.
var digits = regexp.MustCompile(`-?[0-9]+`)

// compareBodies compares two bodies: JSON ones member by member (aspect
// body:$.path), anything else whole (aspect body). Values that cannot be
// the same are masked: a "timestamp" member, and with "# compare: shape"
// every number. A problem document's detail (free text) matches when
// greeter's begins with Spring's, less its final full stop: greeter may
// say more than Spring, never something else.
func compareBodies(c exchange, a, b answer) [][3]string {
	if isJSON(a.Header.Get("Content-Type")) && isJSON(b.Header.Get("Content-Type")) {
		var x, y any
		if json.Unmarshal(a.Body, &x) == nil && json.Unmarshal(b.Body, &y) == nil {
			var out [][3]string
			compareJSON("$", x, y, c.Shape, &out)
			return out
		}
	}
	x, y := a.Body, b.Body
	if c.Shape {
		x, y = digits.ReplaceAll(x, []byte("0")), digits.ReplaceAll(y, []byte("0"))
	}
	if bytes.Equal(x, y) {
		return nil
	}
	return [][3]string{{"body", quoteBody(a.Body), quoteBody(b.Body)}}
}

// quoteBody shows a body in a difference: quoted, cut at 300 bytes.
func quoteBody(b []byte) string {
	if len(b) == 0 {
		return "(empty)"
	}
	if len(b) > 300 {
		return strconv.Quote(string(b[:300])) + "..."
	}
	return strconv.Quote(string(b))
}

// compareJSON compares two JSON values at path, appending each difference.
func compareJSON(path string, x, y any, shape bool, out *[][3]string) {
	switch xv := x.(type) {
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok {
			break
		}
		keys := []string{}
		for k := range xv {
			keys = append(keys, k)
		}
		for k := range yv {
			if _, ok := xv[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := memberPath(path, k)
			xm, xok := xv[k]
			ym, yok := yv[k]
			if k == "timestamp" {
				xm, ym = "{timestamp}", "{timestamp}"
			}
			switch {
			case !xok:
				*out = append(*out, [3]string{"body:" + p, absent, jsonText(ym)})
			case !yok:
				*out = append(*out, [3]string{"body:" + p, jsonText(xm), absent})
			case k == "detail" && path == "$":
				xs, _ := xm.(string)
				ys, _ := ym.(string)
				if !strings.HasPrefix(xs, strings.TrimSuffix(ys, ".")) {
					*out = append(*out, [3]string{"body:" + p, jsonText(xm), jsonText(ym)})
				}
			default:
				compareJSON(p, xm, ym, shape, out)
			}
		}
		return
	case []any:
		yv, ok := y.([]any)
		if !ok {
			break
		}
		if len(xv) != len(yv) {
			*out = append(*out, [3]string{"body:" + path, fmt.Sprintf("%d items", len(xv)), fmt.Sprintf("%d items", len(yv))})
			return
		}
		for i := range xv {
			compareJSON(fmt.Sprintf("%s[%d]", path, i), xv[i], yv[i], shape, out)
		}
		return
	case float64:
		if _, ok := y.(float64); ok && shape {
			return
		}
	}
	if !jsonEqual(x, y) {
		*out = append(*out, [3]string{"body:" + path, jsonText(x), jsonText(y)})
	}
}

// memberPath is the path of an object's member k. A shape (shapeOf) has
// members that stand for an array's items ("[]") or for items it must
// hold ("[name]"): those follow the path without a dot.
func memberPath(path, k string) string {
	if strings.HasPrefix(k, "[") && strings.HasSuffix(k, "]") {
		return path + k
	}
	return path + "." + k
}

func jsonEqual(x, y any) bool {
	a, _ := json.Marshal(x)
	b, _ := json.Marshal(y)
	return bytes.Equal(a, b)
}

// jsonText shows a JSON value in a difference, cut at 300 bytes, with <,
// > and & as they are (a shape's kinds are written <string>).
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return quoteCut(strings.TrimSuffix(b.String(), "\n"))
}

func quoteCut(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// sortDifferences orders differences by case, then aspect.
func sortDifferences(ds []difference) {
	slices.SortFunc(ds, func(a, b difference) int {
		if c := strings.Compare(a.Case, b.Case); c != 0 {
			return c
		}
		return strings.Compare(a.Aspect, b.Aspect)
	})
}
