package api

import (
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/springport/greeter/domain/message"
	"github.com/springport/greeter/framework/dispatch"
)

// Paging bounds the pages of GET /api/messages?page=N&size=M, as Spring
// Data's app.data.web.pageable settings do.
type Paging struct {
	DefaultSize int32 // the size of a page asked for without ?size=
	MaxSize     int32 // a larger ?size= is cut to it
}

// Spring Data's defaults, for a Paging left zero.
const (
	DefaultPageSize    = 20
	DefaultMaxPageSize = 2000
)

func (p Paging) withDefaults() Paging {
	if p.DefaultSize <= 0 {
		p.DefaultSize = DefaultPageSize
	}
	if p.MaxSize <= 0 {
		p.MaxSize = DefaultMaxPageSize
	}
	p.DefaultSize = min(p.DefaultSize, p.MaxSize)
	return p
}

// The query parameters of a page, with Spring Data's names; pages are
// counted from 0. The dispatcher refuses a negative page or a size below 1
// with a 400 (Spring Data would quietly serve page 0, or the default
// size), and the OpenAPI document gives both bounds.
var (
	pageNumber = dispatch.OptionalQuery[int32]("page").Min(0).Describe(
		"The page to answer, counted from 0. With neither page nor size, the whole collection is answered.")
	pageSize = dispatch.OptionalQuery[int32]("size").Min(1).Describe(
		"Messages per page, from 1; a larger size is cut to app.data.web.pageable.max-page-size (default 2000). Without it, a page has app.data.web.pageable.default-page-size (default 20).")
)

// listHeaders document what handleListMessages sets.
var listHeaders = []dispatch.ResponseHeader{
	{Name: TotalCountHeader, Type: reflect.TypeFor[int64](), Description: "How many messages the collection holds, whatever part of it the answer lists."},
	{Name: "Link", Type: reflect.TypeFor[string](), Description: `With page or size: the first, previous, next and last pages (RFC 8288), as <…/api/messages?page=1&size=20>; rel="next".`},
}

// TotalCountHeader carries the number of messages in the collection with
// every list, paged or not: what a client needs to know how many pages
// there are.
const TotalCountHeader = "X-Total-Count"

// handleListMessages streams the collection, or one page of it when the
// request names a page or a size. A page comes with a Link header (RFC
// 8288) to the first, previous, next and last pages, as GitHub's API
// does, so that a client can walk the collection without doing sums.
func handleListMessages(messages message.Store, paging Paging) func(*dispatch.Request) (dispatch.Stream[message.Message], error) {
	paging = paging.withDefaults()
	return func(r *dispatch.Request) (dispatch.Stream[message.Message], error) {
		page, paged := requestedPage(r, paging)
		offset, limit := int64(0), int64(-1) // everything
		if paged {
			offset, limit = int64(page.number)*int64(page.size), int64(page.size)
		}
		l, err := messages.List(r.Context(), offset, limit)
		if err != nil {
			return dispatch.Stream[message.Message]{}, err
		}
		h := http.Header{TotalCountHeader: {strconv.FormatInt(l.Total, 10)}}
		if paged {
			h["Link"] = []string{page.links(r.URL.EscapedPath(), l.Total)}
		}
		return dispatch.Stream[message.Message]{Items: l.Messages, Header: h, Close: l.Close}, nil
	}
}

type pageRequest struct {
	number int32 // from 0
	size   int32 // at least 1
}

// requestedPage reads ?page= and ?size=, which the dispatcher has bounded
// (page 0 or more, size 1 or more). With neither, the request is for the
// whole collection. A size over the maximum is cut to it, as Spring Data
// cuts it, and the Link header shows the size used.
func requestedPage(r *dispatch.Request, paging Paging) (p pageRequest, paged bool) {
	number, hasNumber := pageNumber.Lookup(r)
	size, hasSize := pageSize.Lookup(r)
	if !hasNumber && !hasSize {
		return p, false
	}
	if !hasSize {
		size = paging.DefaultSize
	}
	return pageRequest{number: number, size: min(size, paging.MaxSize)}, true
}

// links is the Link header of page p of a collection of total messages.
func (p pageRequest) links(path string, total int64) string {
	last := int32(0)
	if total > 0 {
		last = int32(min((total-1)/int64(p.size), int64(1<<31-1)))
	}
	var b strings.Builder
	link := func(number int32, rel string) {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString("<" + path + "?page=" + strconv.Itoa(int(number)) + "&size=" + strconv.Itoa(int(p.size)) + `>; rel="` + rel + `"`)
	}
	link(0, "first")
	if p.number > 0 {
		link(min(p.number-1, last), "prev")
	}
	if p.number < last {
		link(p.number+1, "next")
	}
	link(last, "last")
	return b.String()
}
