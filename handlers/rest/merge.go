package rest

import (
	"bytes"
	"slices"

	"github.com/goccy/go-json"

	"fiplan/handlers/errcode"
	"fiplan/handlers/schema"
)

// PATCH bodies are JSON merge patches (RFC 7396): a member sets a field, a
// nested object merges into the nested object, null clears the field
// (only a nullable field accepts null), an absent member leaves the field
// alone. A patch is applied in two steps: first it is checked on its own
// against the resource's schema (types, ranges, unknown or duplicate
// members, null where null is not allowed), ignoring required fields it
// leaves out; then it is merged into the stored resource and the result is
// decoded with the same schema, so a patched resource is exactly as valid
// as a replaced one.

// CheckPatch validates patch with sch into scratch. It reports whether the
// patch may be merged; otherwise it has sent the 400.
func CheckPatch[T any](c *Ctx, sch *schema.Schema[T], patch []byte, scratch *T) bool {
	// A member named twice would merge as whichever the merge reads last,
	// even inside a field the schema keeps as sent (a plan's input).
	if path := duplicateKey(patch); path != "" {
		c.Fail(path, "appears more than once; send each member once")
		return false
	}
	if sch.Decode(patch, scratch, &c.res) {
		return true
	}
	if c.res.Code != errcode.InvalidJSON {
		// A patch may leave required fields out; any other failure stands.
		c.res.Details = slices.DeleteFunc(c.res.Details, func(d schema.Detail) bool { return d.Message == schema.MsgRequired })
		if len(c.res.Details) == 0 {
			return true
		}
		c.res.Code = errcode.Validation
		c.res.Error = "request body failed validation"
	}
	c.Invalid(&c.res)
	return false
}

// MergePatch applies the merge patch to target; both are JSON objects.
func MergePatch(target, patch []byte) ([]byte, error) {
	var t, p map[string]json.RawMessage
	if err := json.Unmarshal(target, &t); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(patch, &p); err != nil {
		return nil, err
	}
	if t == nil {
		t = map[string]json.RawMessage{}
	}
	for k, v := range p {
		switch {
		case bytes.Equal(v, []byte("null")):
			delete(t, k)
		case isObject(v):
			base := t[k]
			if !isObject(base) {
				base = []byte("{}")
			}
			m, err := MergePatch(base, v)
			if err != nil {
				return nil, err
			}
			t[k] = m
		default:
			t[k] = v
		}
	}
	return json.Marshal(t)
}

func isObject(raw []byte) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}
