package metrics

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The exposition formats, written as client_golang's promhttp (with
// prometheus/common's expfmt) wrote them, byte for byte, so that a
// scraper sees no difference: the text format 0.0.4, and OpenMetrics
// 1.0.0 (and 0.0.1, the same text) for a scraper that asks for it, as
// Prometheus does first; not protobuf (see ContentTypes).

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
