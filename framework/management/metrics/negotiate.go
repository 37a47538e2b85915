package metrics

import (
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// How a scrape's format and compression are chosen from its Accept and
// Accept-Encoding headers, as promhttp chose them.

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
// dispatcher's negotiation: any other Accept is a 406. promhttp also
// wrote protobuf (application/vnd.google.protobuf, delimited); no
// Prometheus we support needs it: they all read the text formats, and
// ask for protobuf only to scrape native histograms, which these metrics
// do not have.
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
