package metrics

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The exposition formats, written as client_golang's promhttp (with
// prometheus/common's expfmt) wrote them, byte for byte, so that a
// scraper sees no difference: the text format 0.0.4, and OpenMetrics
// 1.0.0 (and 0.0.1, the same text) for a scraper that asks for it, as
// Prometheus does first. The protobuf format promhttp also offered is
// left out: Prometheus has read the text formats since 2.0 and asks for
// protobuf only with native histograms enabled, which these metrics do
// not have.

// format is a representation a scrape can be written in.
type format struct {
	contentType string // less the escaping parameter, added per request
	openMetrics bool

	// What promhttp matches an Accept clause against: its media type and
	// version (the charset it ignores).
	typ, subType, version string
}

// formats are those served, in promhttp's order of preference
// (expfmt.DefaultOpenMetricsAcceptedFormats, less protobuf).
var formats = []format{
	{contentType: "application/openmetrics-text; version=1.0.0; charset=utf-8", openMetrics: true,
		typ: "application", subType: "openmetrics-text", version: "1.0.0"},
	{contentType: "application/openmetrics-text; version=0.0.1; charset=utf-8", openMetrics: true,
		typ: "application", subType: "openmetrics-text", version: "0.0.1"},
	{contentType: "text/plain; version=0.0.4; charset=utf-8",
		typ: "text", subType: "plain", version: "0.0.4"},
}

// textFormat is what a scraper that accepts none of formats gets.
var textFormat = formats[2]

// ContentTypes are the representations the handler writes, for the
// dispatcher's negotiation: any other Accept is a 406.
var ContentTypes = []string{
	"text/plain;version=0.0.4;charset=utf-8",
	"application/openmetrics-text;version=1.0.0;charset=utf-8",
	"application/openmetrics-text;version=0.0.1;charset=utf-8",
}

// escapingSchemes are the values of Accept's escaping parameter that
// promhttp echoes in Content-Type. They say how a name that is not a
// valid legacy Prometheus name is to be escaped; every name here is
// valid, so none changes what is written.
var escapingSchemes = []string{"allow-utf-8", "underscores", "dots", "values"}

// negotiate chooses the format of a scrape from its Accept header, and
// the escaping scheme to name in Content-Type, as expfmt.NegotiateAccept
// does: the clauses by preference, the first that a format matches, or
// the text format.
func negotiate(accept string) (format, string) {
	escaping := "underscores" // model.NameEscapingScheme
	for _, c := range parseAccept(accept) {
		// As expfmt, a clause's escaping counts even when the clause
		// itself matches no format.
		if e := c.params["escaping"]; slices.Contains(escapingSchemes, e) {
			escaping = e
		}
		for _, f := range formats {
			if c.matches(f) {
				return f, escaping
			}
		}
	}
	return textFormat, escaping
}

// acceptClause is a media range of an Accept header.
type acceptClause struct {
	typ, subType string
	q            float64
	params       map[string]string
}

func (c acceptClause) matches(f format) bool {
	if (c.typ != "*" && c.typ != f.typ) || (c.subType != "*" && c.subType != f.subType) {
		return false
	}
	version := c.params["version"]
	if version == "" && c.typ == "application" && c.subType == "openmetrics-text" {
		version = "0.0.1" // as expfmt: OpenMetrics without a version is 0.0.1
	}
	if version == "" && c.typ == "text" && c.subType == "plain" {
		version = "0.0.4"
	}
	return version == f.version
}

// parseAccept parses an Accept header as goautoneg.ParseAccept, which
// promhttp uses: clauses it cannot read are skipped, and the rest sorted
// by q, then the specific before the wildcards, with sort.Sort and the
// same comparison, so that ties fall as they did.
func parseAccept(header string) []acceptClause {
	var clauses []acceptClause
	for part := range strings.SplitSeq(header, ",") {
		if header == "" {
			break
		}
		part = strings.Trim(part, " ")
		mediaRange, params, _ := strings.Cut(part, ";")
		c := acceptClause{q: 1}
		typ, subType, hasSlash := strings.Cut(mediaRange, "/")
		c.typ = strings.Trim(typ, " ")
		if !hasSlash || subType == "" {
			if c.typ != "*" {
				continue
			}
			c.subType = "*"
		} else if sub, rest, _ := strings.Cut(subType, "/"); rest == "" {
			c.subType = strings.Trim(sub, " ")
		} else {
			continue
		}
		if params != "" {
			c.params = map[string]string{}
			for p := range strings.SplitSeq(params, ";") {
				key, value, _ := strings.Cut(p, "=")
				value, rest, _ := strings.Cut(value, "=")
				if value == "" || rest != "" {
					continue
				}
				if key = strings.Trim(key, " "); key == "q" {
					c.q, _ = strconv.ParseFloat(value, 32)
				} else {
					c.params[key] = strings.Trim(value, " ")
				}
			}
		}
		clauses = append(clauses, c)
	}
	sort.Sort(byPreference(clauses))
	return clauses
}

// byPreference is goautoneg's order of Accept clauses.
type byPreference []acceptClause

func (s byPreference) Len() int      { return len(s) }
func (s byPreference) Swap(i, j int) { s[i], s[j] = s[j], s[i] }
func (s byPreference) Less(i, j int) bool {
	a, b := s[i], s[j]
	return a.q > b.q || (a.typ != "*" && b.typ == "*") || (a.subType != "*" && b.subType == "*")
}

// acceptsGzip reports whether a scrape is to be compressed, as promhttp
// decides from Accept-Encoding between identity and gzip: the one with
// the higher q, identity on a tie, and gzip only by name or "*".
func acceptsGzip(h http.Header) bool {
	best, bestQ := "identity", -1.0
	specs := parseAcceptEncoding(h)
	for _, offer := range []string{"identity", "gzip"} {
		for _, s := range specs {
			if s.q > bestQ && (s.coding == "*" || s.coding == offer) {
				best, bestQ = offer, s.q
			}
		}
	}
	return best == "gzip" && bestQ > 0
}

type acceptEncoding struct {
	coding string
	q      float64
}

// parseAcceptEncoding reads the codings of Accept-Encoding and their q;
// as gddo's httputil, which promhttp uses, a malformed clause ends the
// header line it is on.
func parseAcceptEncoding(h http.Header) []acceptEncoding {
	var specs []acceptEncoding
	for _, line := range h.Values("Accept-Encoding") {
		for clause := range strings.SplitSeq(line, ",") {
			coding, param, hasParam := strings.Cut(clause, ";")
			spec := acceptEncoding{coding: strings.TrimSpace(coding), q: 1}
			if spec.coding == "" {
				break
			}
			if hasParam {
				q, ok := strings.CutPrefix(strings.TrimSpace(param), "q=")
				v, err := strconv.ParseFloat(strings.TrimSpace(q), 64)
				if !ok || err != nil || v < 0 || v > 1 {
					break
				}
				spec.q = v
			}
			specs = append(specs, spec)
		}
	}
	return specs
}

var gzipWriters = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

// serveExposition writes families in the format the scraper asks for,
// compressed if it accepts gzip, and only the families named by name[]
// parameters when there are any, as promhttp does.
func serveExposition(w http.ResponseWriter, r *http.Request, families []family) {
	f, escaping := negotiate(r.Header.Get("Accept"))
	h := w.Header()
	h.Add("Vary", "Accept")
	h.Add("Vary", "Accept-Encoding")
	h.Set("Content-Type", f.contentType+"; escaping="+escaping)
	var out io.Writer = w
	if acceptsGzip(r.Header) {
		h.Set("Content-Encoding", "gzip")
		gz := gzipWriters.Get().(*gzip.Writer)
		gz.Reset(w)
		defer func() {
			_ = gz.Close() // the scraper that went away is no one's error
			gzipWriters.Put(gz)
		}()
		out = gz
	}
	if names := r.URL.Query()["name[]"]; len(names) > 0 {
		var named []family
		for _, fam := range families {
			if slices.Contains(names, fam.name) {
				named = append(named, fam)
			}
		}
		families = named
	}
	ew := expositionWriter{w: bufio.NewWriter(out), openMetrics: f.openMetrics}
	for i := range families {
		ew.family(&families[i])
	}
	if f.openMetrics {
		ew.w.WriteString("# EOF\n")
	}
	_ = ew.w.Flush() // as above
}

// expositionWriter writes families in the text format or OpenMetrics.
// A bufio.Writer keeps its first error and ignores what follows, so the
// writes are not checked one by one.
type expositionWriter struct {
	w           *bufio.Writer
	openMetrics bool
	num         []byte
}

var (
	// helpEscaper escapes HELP in the text format, labelEscaper label
	// values and, in OpenMetrics, HELP and UNIT too.
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func (ew *expositionWriter) family(f *family) {
	name := f.name
	typ := [...]string{counterType: "counter", gaugeType: "gauge", summaryType: "summary", histogramType: "histogram"}[f.typ]
	if ew.openMetrics && f.typ == counterType {
		// OpenMetrics names a counter family without the _total its
		// samples have, and a counter without one is of unknown type.
		if base, ok := strings.CutSuffix(name, "_total"); ok {
			name = base
		} else {
			typ = "unknown"
		}
	}
	help := helpEscaper
	if ew.openMetrics {
		help = labelEscaper
	}
	ew.w.WriteString("# HELP ")
	ew.w.WriteString(name)
	ew.w.WriteByte(' ')
	help.WriteString(ew.w, f.help)
	ew.w.WriteString("\n# TYPE ")
	ew.w.WriteString(name)
	ew.w.WriteByte(' ')
	ew.w.WriteString(typ)
	ew.w.WriteByte('\n')
	if ew.openMetrics && f.unit != "" {
		ew.w.WriteString("# UNIT ")
		ew.w.WriteString(name)
		ew.w.WriteByte(' ')
		labelEscaper.WriteString(ew.w, f.unit)
		ew.w.WriteByte('\n')
	}
	for i := range f.series {
		s := &f.series[i]
		switch f.typ {
		case counterType, gaugeType:
			ew.sample(f.name, "", s.labels, "", 0)
			ew.float(s.value)
		case summaryType:
			for _, q := range s.quantiles {
				ew.sample(f.name, "", s.labels, "quantile", q.quantile)
				ew.float(q.value)
			}
			ew.sums(f.name, s)
		case histogramType:
			for _, b := range s.buckets {
				ew.sample(f.name, "_bucket", s.labels, "le", b.upperBound)
				ew.count(b.count)
			}
			ew.sample(f.name, "_bucket", s.labels, "le", math.Inf(1))
			ew.count(s.count)
			ew.sums(f.name, s)
		}
	}
}

// sums ends the samples of a summary or a histogram series.
func (ew *expositionWriter) sums(name string, s *series) {
	ew.sample(name, "_sum", s.labels, "", 0)
	ew.float(s.sum)
	ew.sample(name, "_count", s.labels, "", 0)
	ew.count(s.count)
}

// sample writes a sample's name and labels, and the label le or quantile
// when extra names it; the value follows.
func (ew *expositionWriter) sample(name, suffix string, labels []labelPair, extra string, extraValue float64) {
	ew.w.WriteString(name)
	ew.w.WriteString(suffix)
	separator := byte('{')
	for _, l := range labels {
		ew.w.WriteByte(separator)
		ew.w.WriteString(l.name)
		ew.w.WriteString(`="`)
		labelEscaper.WriteString(ew.w, l.value)
		ew.w.WriteByte('"')
		separator = ','
	}
	if extra != "" {
		ew.w.WriteByte(separator)
		ew.w.WriteString(extra)
		ew.w.WriteString(`="`)
		ew.w.Write(ew.formatFloat(extraValue))
		ew.w.WriteByte('"')
		separator = ','
	}
	if separator == ',' {
		ew.w.WriteByte('}')
	}
	ew.w.WriteByte(' ')
}

// float ends a sample with a value.
func (ew *expositionWriter) float(v float64) {
	ew.w.Write(ew.formatFloat(v))
	ew.w.WriteByte('\n')
}

// count ends a sample with a count: an integer in OpenMetrics, a float
// in the text format (1e+06 for a million), as expfmt writes them.
func (ew *expositionWriter) count(n uint64) {
	if !ew.openMetrics {
		ew.float(float64(n))
		return
	}
	ew.num = strconv.AppendUint(ew.num[:0], n, 10)
	ew.w.Write(ew.num)
	ew.w.WriteByte('\n')
}

// formatFloat formats a value as expfmt does: the shortest 'g' form, the
// infinities as +Inf and -Inf; OpenMetrics wants a float to look like
// one, so it adds ".0" to one that would read as an integer.
func (ew *expositionWriter) formatFloat(v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(ew.num[:0], "NaN"...)
	case math.IsInf(v, 1):
		return append(ew.num[:0], "+Inf"...)
	case math.IsInf(v, -1):
		return append(ew.num[:0], "-Inf"...)
	}
	ew.num = strconv.AppendFloat(ew.num[:0], v, 'g', -1, 64)
	if ew.openMetrics && !bytes.ContainsAny(ew.num, "e.") {
		ew.num = append(ew.num, ".0"...)
	}
	return ew.num
}
