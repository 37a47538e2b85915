package dispatch

import "encoding/xml"

// Page is a page of items as a route answers it, in the stable shape
// that Spring Data 3.3 recommends (PagedModel, written with
// @EnableSpringDataWebSupport(pageSerializationMode = VIA_DTO)):
//
//	{"content":[…],"page":{"size":20,"number":0,"totalElements":57,"totalPages":3}}
//
// Spring Boot writes a PageImpl's own fields unless told otherwise (its
// serialization-mode direct), a shape Spring Data itself warns may
// change; a Go service has no PageImpl, and writes this one. As XML it is
// <Page><content>…</content><content>…</content><page>…</page></Page>,
// one content element per item, as encoding/xml writes a list field.
// Build it with NewPage, which never leaves Content nil (written null).
type Page[T any] struct {
	XMLName xml.Name     `json:"-" xml:"Page"`
	Content []T          `json:"content" xml:"content"`
	Page    PageMetadata `json:"page" xml:"page"`
}

// PageMetadata says where a page is among all the pages (Spring's
// PagedModel.PageMetadata). Number is zero-based, as in Spring, even when
// requests count pages from one.
type PageMetadata struct {
	Size          int64 `json:"size" xml:"size"`
	Number        int64 `json:"number" xml:"number"`
	TotalElements int64 `json:"totalElements" xml:"totalElements"`
	TotalPages    int64 `json:"totalPages" xml:"totalPages"`
}

// NewPage returns the page of items that request asked for, of total
// items in all. As Spring's PageImpl, a page that has items and reaches
// past total (a count taken before items were added) makes the total its
// offset and its items.
func NewPage[T any](items []T, request PageRequest, total int64) Page[T] {
	if items == nil {
		items = []T{}
	}
	offset, size := int64(request.Offset()), int64(request.Size)
	if len(items) > 0 && offset+size > total {
		total = offset + int64(len(items))
	}
	pages := int64(1)
	if size > 0 {
		pages = (total + size - 1) / size
	}
	return Page[T]{Content: items, Page: PageMetadata{Size: size, Number: int64(request.Number), TotalElements: total, TotalPages: pages}}
}
