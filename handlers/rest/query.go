package rest

import (
	"strconv"
	"strings"

	"fiplan/handlers/bytesconv"
)

// Paging defaults shared by every list route.
const (
	DefaultLimit = 50
	MaxLimit     = 200
)

// PageQuery declares the limit and offset parameters of a list route.
var PageQuery = []Param{
	{"limit", "integer", "Items per page, 1-" + strconv.Itoa(MaxLimit) + "; default " + strconv.Itoa(DefaultLimit) + "."},
	{"offset", "integer", "Items to skip, 0 or more; default 0."},
}

// Page reads limit and offset from the query string. On a bad value it
// has sent 400 VALIDATION_ERROR naming the parameter and returns false.
func (c *Ctx) Page() (limit, offset int, ok bool) {
	limit, offset = DefaultLimit, 0
	args := c.RC.QueryArgs()
	if v := args.Peek("limit"); v != nil {
		n, err := strconv.Atoi(bytesconv.String(v))
		if err != nil || n < 1 || n > MaxLimit {
			c.Fail("limit", "must be an integer from 1 to "+strconv.Itoa(MaxLimit))
			return 0, 0, false
		}
		limit = n
	}
	if v := args.Peek("offset"); v != nil {
		n, err := strconv.Atoi(bytesconv.String(v))
		if err != nil || n < 0 {
			c.Fail("offset", "must be an integer, 0 or more")
			return 0, 0, false
		}
		offset = n
	}
	return limit, offset, true
}

// Window clamps [offset, offset+limit) to n items.
func Window(n, limit, offset int) (lo, hi int) {
	lo = min(offset, n)
	hi = min(lo+limit, n)
	return lo, hi
}

// maxQueryArgs bounds the parameters of one request.
const maxQueryArgs = 32

// CheckQuery refuses a parameter the route does not declare, a parameter
// given twice and more than maxQueryArgs parameters, with 400
// VALIDATION_ERROR naming the parameter. Every route passes through it, so
// the rule is the same everywhere; values are the route's to judge.
func (c *Ctx) CheckQuery() bool {
	args := c.RC.QueryArgs()
	if args.Len() == 0 {
		return true
	}
	if args.Len() > maxQueryArgs {
		c.Fail("query", "at most "+strconv.Itoa(maxQueryArgs)+" query parameters")
		return false
	}
	i := 0
	for k := range args.All() {
		if !c.route.declares(k) {
			c.Fail(string(k), "is not a parameter of this endpoint"+c.route.paramList())
			return false
		}
		j := 0
		for k2 := range args.All() {
			if j > i && string(k2) == string(k) {
				c.Fail(string(k), "is given more than once")
				return false
			}
			j++
		}
		i++
	}
	return true
}

// paramList names the declared parameters for an error message.
func (r *Route) paramList() string {
	if len(r.Query) == 0 {
		return "; it takes none"
	}
	var b strings.Builder
	b.WriteString("; it takes ")
	for i := range r.Query {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(r.Query[i].Name)
	}
	return b.String()
}
