package handlers

import "strconv"

// Paging defaults shared by every list route.
const (
	defaultLimit = 50
	maxLimit     = 200
)

// pageQuery documents the limit and offset parameters of a list route.
var pageQuery = []queryDoc{
	{"limit", "integer", "Items per page, 1-" + strconv.Itoa(maxLimit) + "; default " + strconv.Itoa(defaultLimit) + "."},
	{"offset", "integer", "Items to skip, 0 or more; default 0."},
}

// Page reads limit and offset from the query string. On a bad value it
// has sent 400 VALIDATION_ERROR naming the parameter and returns false.
func (c *Ctx) Page() (limit, offset int, ok bool) {
	limit, offset = defaultLimit, 0
	args := c.RC.QueryArgs()
	if v := args.Peek("limit"); v != nil {
		n, err := strconv.Atoi(b2s(v))
		if err != nil || n < 1 || n > maxLimit {
			c.Fail("limit", "must be an integer from 1 to "+strconv.Itoa(maxLimit))
			return 0, 0, false
		}
		limit = n
	}
	if v := args.Peek("offset"); v != nil {
		n, err := strconv.Atoi(b2s(v))
		if err != nil || n < 0 {
			c.Fail("offset", "must be an integer, 0 or more")
			return 0, 0, false
		}
		offset = n
	}
	return limit, offset, true
}

// window clamps [offset, offset+limit) to n items.
func window(n, limit, offset int) (lo, hi int) {
	lo = min(offset, n)
	hi = min(lo+limit, n)
	return lo, hi
}
