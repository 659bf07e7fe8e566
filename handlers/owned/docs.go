package owned

import (
	"strconv"

	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// Route names one of the routes a kind may serve.
type Route int

// The routes of a kind.
const (
	List Route = iota
	Create
	Get
	Put
	Patch
	Delete
)

// NotFoundDoc declares the 404 of an id the caller owns no document under.
func (k *Kind) NotFoundDoc() rest.ErrDoc {
	return rest.Err(errcode.NotFound, "the caller has no "+k.Noun+" with this id (another user's id included)")
}

// conflictDoc declares the 409 of a write past the cap (or on a held
// unique value).
func (k *Kind) conflictDoc() rest.ErrDoc {
	full := "the caller already has " + strconv.Itoa(k.Max) + " " + k.Plural
	if k.Unique != "" {
		full = k.Unique + ", or " + full
	}
	return rest.Err(errcode.Conflict, full)
}

// Doc declares route r of the kind for the OpenAPI document: its tag,
// status, paging, versioning and the errors this package answers; the
// summary, description, body and data are the kind's.
func (k *Kind) Doc(r Route, summary, desc string, body, data rest.Schema) *rest.Doc {
	d := &rest.Doc{Tag: k.Tag, Status: 200, Summary: summary, Desc: desc, Body: body, Data: data}
	switch r {
	case List:
		d.List = true
		if !k.Unpaged {
			d.Query = rest.PageQuery
		}
	case Create:
		d.Status = 201
		d.Errs = []rest.ErrDoc{k.conflictDoc()}
	case Get:
		d.Versioned = k.Versioned
		d.Errs = []rest.ErrDoc{k.NotFoundDoc()}
	case Put, Patch:
		d.Versioned = k.Versioned
		d.Errs = []rest.ErrDoc{k.NotFoundDoc()}
		if k.Unique != "" {
			d.Errs = append(d.Errs, k.conflictDoc())
		}
	case Delete:
		d.Status = 204
		d.Versioned = k.Versioned
		d.Errs = []rest.ErrDoc{k.NotFoundDoc()}
	}
	return d
}
