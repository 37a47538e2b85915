package server

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/springport/greeter/framework/config"
	"github.com/springport/greeter/framework/dispatch"
)

// Paging settings: how the service's routes read a dispatch.Pageable,
// Spring Boot's spring.data.web.* (DataWebProperties) under app., with
// its defaults. Spring takes a max-page-size of 0 or a default above the
// largest and fails on the first request; here start-up stops, naming
// the setting.
const pagingPrefix = "app.data.web.pageable."

// BindPaging reads app.data.web.pageable.* and app.data.web.sort.*.
func BindPaging(b *config.Binder) *dispatch.Paging {
	p := &dispatch.Paging{
		DefaultPageSize: config.Bind(b, pagingPrefix+"default-page-size", dispatch.DefaultPageSize, config.IntIn(1, math.MaxInt32),
			"the size of a page when a request to a route that pages names none"),
		MaxPageSize: config.Bind(b, pagingPrefix+"max-page-size", dispatch.MaxPageSize, config.IntIn(1, math.MaxInt32),
			"the largest page a route that pages serves; a request for a larger one is served this many"),
		PageParameter: config.Bind(b, pagingPrefix+"page-parameter", "page", parameterName(false),
			"the name of the query parameter that numbers the page a request asks for"),
		SizeParameter: config.Bind(b, pagingPrefix+"size-parameter", "size", parameterName(false),
			"the name of the query parameter that sizes the page a request asks for"),
		Prefix: config.Bind(b, pagingPrefix+"prefix", "", parameterName(true),
			"put before the names of the page and size parameters (not sort's, as in Spring)"),
		QualifierDelimiter: config.Bind(b, pagingPrefix+"qualifier-delimiter", "_", parameterName(false),
			"between a qualified Pageable's qualifier and its page and size parameters' names (sort's is always _, as in Spring)"),
		OneIndexedParameters: config.Bind(b, pagingPrefix+"one-indexed-parameters", false, config.Bool,
			"true: page 1 is the first page in requests (a page's number in answers stays zero-based, as in Spring)"),
		SortParameter: config.Bind(b, "app.data.web.sort.sort-parameter", "sort", parameterName(false),
			"the name of the query parameter that sorts the page a request asks for"),
	}
	config.Bind(b, pagingPrefix+"serialization-mode", "via-dto", serializationMode,
		"how a page is written: via-dto (dispatch.Page: its content and a page object), the only mode here; Spring's default, direct, is refused")
	switch {
	case p.DefaultPageSize > p.MaxPageSize && b.IsSet(pagingPrefix+"max-page-size") && !b.IsSet(pagingPrefix+"default-page-size"):
		b.Refuse(pagingPrefix+"max-page-size", "below default-page-size, "+strconv.Itoa(p.DefaultPageSize))
	case p.DefaultPageSize > p.MaxPageSize:
		b.Refuse(pagingPrefix+"default-page-size", "above max-page-size, "+strconv.Itoa(p.MaxPageSize))
	}
	if p.PageParameter == p.SizeParameter {
		b.Refuse(pagingPrefix+"size-parameter", "the page parameter has that name too")
	}
	if p.SortParameter == p.Prefix+p.PageParameter || p.SortParameter == p.Prefix+p.SizeParameter {
		b.Refuse("app.data.web.sort.sort-parameter", "the page or the size parameter has that name too")
	}
	return p
}

// parameterName reads the name (or part of the name) of a query
// parameter, which must be sent as it is: no spaces, and none of the
// characters that a query string escapes or splits on.
func parameterName(mayBeEmpty bool) func(string) (string, error) {
	return func(s string) (string, error) {
		if s == "" && !mayBeEmpty {
			return "", errors.New("want a name")
		}
		if strings.ContainsAny(s, " \t\r\n&=#%+?") {
			return "", errors.New("want a name without spaces or any of & = # % + ?")
		}
		return s, nil
	}
}

func serializationMode(s string) (string, error) {
	if _, err := config.OneOf("via-dto")(s); err != nil {
		return "", errors.New("want via-dto: dispatch.Page is written in Spring Data's stable shape, {content, page}; direct (PageImpl's own fields) is not written here")
	}
	return "via-dto", nil
}
