package schema

import (
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"fiplan/handlers/bytesconv"
)

// The JSON lexer under the decoder: white space, literals, numbers,
// strings with their escapes, and skipping a value the schema does not
// declare. Each scans d.b from d.i and reports a syntax error through the
// decoder.

// ws skips JSON white space.
func (d *decoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *decoder) literal(lit string) bool {
	if len(d.b)-d.i >= len(lit) && string(d.b[d.i:d.i+len(lit)]) == lit {
		d.i += len(lit)
		return true
	}
	d.syntax("invalid literal")
	return false
}

// number scans a JSON number and parses it.
func (d *decoder) number() (float64, bool) {
	start := d.i
	b := d.b
	i := d.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		d.i = i
		d.syntax("invalid number")
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			d.i = i
			d.syntax("invalid number")
			return 0, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			d.i = i
			d.syntax("invalid number")
			return 0, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	d.i = i
	x, err := strconv.ParseFloat(bytesconv.String(b[start:i]), 64)
	if err != nil && !math.IsInf(x, 0) {
		d.syntax("invalid number")
		return 0, false
	}
	return x, true // ±Inf (overflow) is reported by msgRange
}

// str scans a string at d.b[d.i] == '"' and returns its unescaped bytes,
// which alias either the body or a scratch buffer and are valid until the
// next call. key selects the scratch buffer kept for object keys.
func (d *decoder) str(key bool) ([]byte, bool) {
	d.i++
	start := d.i
	b := d.b
	for i := start; i < len(b); {
		c := b[i]
		switch {
		case c == '"':
			d.i = i + 1
			return b[start:i], true
		case c == '\\':
			return d.strSlow(start, i, key)
		case c < 0x20:
			d.i = i
			d.syntax("control character in string")
			return nil, false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				d.i = i
				d.syntax("invalid UTF-8")
				return nil, false
			}
			i += size
		}
	}
	d.i = len(b)
	d.syntax("unterminated string")
	return nil, false
}

func (d *decoder) strSlow(start, i int, key bool) ([]byte, bool) {
	b := d.b
	out := d.r.scratch[:0]
	if key {
		// Keys and values may be live at once: keep keys at the front of a
		// separate region by copying values after them.
		out = nil
	}
	out = append(out, b[start:i]...)
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			d.i = i + 1
			if !key {
				d.r.scratch = out
			}
			return out, true
		case c == '\\':
			var ok bool
			if out, i, ok = d.unescape(out, i); !ok {
				return nil, false
			}
		case c < 0x20:
			d.i = i
			d.syntax("control character in string")
			return nil, false
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				d.i = i
				d.syntax("invalid UTF-8")
				return nil, false
			}
			out = append(out, b[i:i+size]...)
			i += size
		}
	}
	d.i = len(b)
	d.syntax("unterminated string")
	return nil, false
}

// unescape appends the character of the escape at b[i] (a backslash) to
// out and returns out and the index after the escape; false after a
// syntax error.
func (d *decoder) unescape(out []byte, i int) ([]byte, int, bool) {
	b := d.b
	if i+1 >= len(b) {
		d.i = i
		d.syntax("unterminated string")
		return nil, 0, false
	}
	e := b[i+1]
	i += 2
	switch e {
	case '"', '\\', '/':
		out = append(out, e)
	case 'b':
		out = append(out, '\b')
	case 'f':
		out = append(out, '\f')
	case 'n':
		out = append(out, '\n')
	case 'r':
		out = append(out, '\r')
	case 't':
		out = append(out, '\t')
	case 'u':
		r, ok := hex4(b, i)
		if !ok {
			d.i = i
			d.syntax("invalid \\u escape")
			return nil, 0, false
		}
		i += 4
		if utf16.IsSurrogate(r) {
			r2 := rune(-1)
			if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
				if v, ok := hex4(b, i+2); ok {
					r2 = v
				}
			}
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				r = dec
				i += 6
			} else {
				r = utf8.RuneError
			}
		}
		out = utf8.AppendRune(out, r)
	default:
		d.i = i - 1
		d.syntax("invalid escape")
		return nil, 0, false
	}
	return out, i, true
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// skip syntax-checks and passes over one value of any type.
func (d *decoder) skip() {
	d.ws()
	if d.i >= len(d.b) {
		d.syntax("unexpected end of input")
		return
	}
	switch c := d.b[d.i]; {
	case c == '{' || c == '[':
		if d.depth++; d.depth > MaxDepth {
			d.syntax("nesting is deeper than " + strconv.Itoa(MaxDepth))
			return
		}
		defer func() { d.depth-- }()
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		d.i++
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == closer {
			d.i++
			return
		}
		for {
			d.ws()
			if c == '{' {
				if d.i >= len(d.b) || d.b[d.i] != '"' {
					d.syntax("expected a field name")
					return
				}
				if _, ok := d.str(true); !ok {
					return
				}
				d.ws()
				if d.i >= len(d.b) || d.b[d.i] != ':' {
					d.syntax("expected ':'")
					return
				}
				d.i++
			}
			d.skip()
			if d.bad {
				return
			}
			d.ws()
			if d.i < len(d.b) && d.b[d.i] == ',' {
				d.i++
				continue
			}
			if d.i < len(d.b) && d.b[d.i] == closer {
				d.i++
				return
			}
			d.syntax("expected ',' or '" + string(closer) + "'")
			return
		}
	case c == '"':
		d.str(false)
	case c == 't':
		d.literal("true")
	case c == 'f':
		d.literal("false")
	case c == 'n':
		d.literal("null")
	default:
		d.number()
	}
}
