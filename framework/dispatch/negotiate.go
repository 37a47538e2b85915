package dispatch

// negotiate picks, from the types a route can produce (in its order of
// preference), the one the client's sorted Accept ranges prefer, and returns
// its index, or -1 when nothing is acceptable. No ranges means anything is
// acceptable.
//
// The ranges are walked in order; a range picks the first producible type it
// includes, unless that type is refused (q=0) by a range at least as
// specific. So "*/*" picks the route's first type, and "text/xml;q=0, */*"
// never picks text/xml.
//
// A producible pattern such as application/*+json is picked only by a
// concrete range it covers, and then the second result is that concrete
// type (application/vnd.example+json), to answer with; otherwise it is the
// zero value.
func negotiate(ranges []mediaType, producible []mediaType) (int, mediaType) {
	if len(ranges) == 0 {
		return 0, mediaType{}
	}
	for _, r := range ranges {
		if r.q == 0 {
			break // sorted by quality: the rest are refusals too
		}
		for i, p := range producible {
			if p.isPattern() {
				// Only a concrete request can pick a pattern; a wildcard
				// range reaches the concrete types listed before it.
				if !r.isPattern() && p.includes(r) && !refused(ranges, r, r.specificity()) {
					return i, r
				}
				continue
			}
			if r.includes(p) && !refused(ranges, p, r.specificity()) {
				return i, mediaType{}
			}
		}
	}
	return -1, mediaType{}
}

// refused reports whether a q=0 range at least as specific as spec includes p.
func refused(ranges []mediaType, p mediaType, spec int) bool {
	for i := len(ranges) - 1; i >= 0 && ranges[i].q == 0; i-- {
		if ranges[i].includes(p) && ranges[i].specificity() >= spec {
			return true
		}
	}
	return false
}
