// Package jsonw appends JSON to a byte slice without reflection or maps.
//
// A Writer tracks only whether the next value needs a leading comma, so a
// handler writes an object as a flat sequence of calls:
//
//	w.Begin()            // {
//	w.Key("fiNumber")    // "fiNumber":
//	w.Float(1.25e6)      // 1250000
//	w.End()              // }
//
// Non-finite floats are written as null, since JSON has no NaN or Inf.
//
// # Which JSON codec
//
// fiplan has four, each with one job:
//
//   - handlers/schema decodes request bodies: it validates them against the
//     request's declared struct, whose tags are also the OpenAPI request
//     schema. Nothing else reads a request body.
//   - goccy/go-json encodes responses from their declarations: a response
//     is a Go struct whose json, schema and doc tags are its OpenAPI schema
//     (rest.Ctx.JSON, or an Encoder writing into a pooled buffer, as the
//     calculator does). goccy also reads and writes the stores' documents
//     and reads the answers the MCP tools pass on.
//   - jsonw writes by hand, or through generated append code, only what a
//     benchmark shows reflection is too slow for (the calculator's
//     projection rows, generated from their declaration:
//     BenchmarkProjectionRowsAppended against BenchmarkProjectionRowsDeclared),
//     a value no tag can declare (the calculator's goals, null when asked and
//     unmet, absent when not asked), and the envelopes and schema documents
//     rest and schema build. A hand-written response is proved equal to its
//     declared struct by a differential test over generated values
//     (TestAnswerIsItsDeclaration). Older handlers that write a whole
//     response with jsonw follow the same rule when they next change.
//   - encoding/json is the reference: the differential tests compare
//     against it, and the cold paths use it where its exact behaviour
//     matters (the datasets and tax tables read at start-up, JWKS, the MCP
//     tools' schemas derived when they are bound).
package jsonw

import (
	"math"
	"math/bits"
	"strconv"
	"time"
	"unicode/utf8"

	"fiplan/handlers/bytesconv"
)

// Writer appends JSON to B. The zero value is ready to use.
type Writer struct {
	B     []byte
	comma bool
}

// Reset empties the writer, keeping the capacity of B.
func (w *Writer) Reset() {
	w.B = w.B[:0]
	w.comma = false
}

func (w *Writer) sep() {
	if w.comma {
		w.B = append(w.B, ',')
	}
	w.comma = true
}

// Begin opens an object.
func (w *Writer) Begin() {
	w.sep()
	w.B = append(w.B, '{')
	w.comma = false
}

// End closes an object.
func (w *Writer) End() {
	w.B = append(w.B, '}')
	w.comma = true
}

// BeginArray opens an array.
func (w *Writer) BeginArray() {
	w.sep()
	w.B = append(w.B, '[')
	w.comma = false
}

// EndArray closes an array.
func (w *Writer) EndArray() {
	w.B = append(w.B, ']')
	w.comma = true
}

// Key writes an object key; the next call writes its value. Keys are the
// program's own field names, so they are written as they are: never pass
// anything from a request as a key (write it with String instead).
func (w *Writer) Key(k string) {
	w.sep()
	w.B = append(w.B, '"')
	w.B = append(w.B, k...)
	w.B = append(w.B, '"', ':')
	w.comma = false
}

// String writes a string value.
func (w *Writer) String(s string) {
	w.sep()
	w.B = AppendString(w.B, s)
}

// StringOrNull writes s as a string value, or null when s is empty: the
// encoding of an optional string held as "" when absent.
func (w *Writer) StringOrNull(s string) {
	if s == "" {
		w.Null()
		return
	}
	w.String(s)
}

// Bytes writes b as a string value.
func (w *Writer) Bytes(b []byte) {
	w.sep()
	w.B = appendString(w.B, b)
}

// Float writes a number; NaN and infinities become null.
func (w *Writer) Float(f float64) {
	w.sep()
	w.B = AppendFloat(w.B, f)
}

// Fixed writes f rounded to decimals places (0 to 8), without trailing
// zeros: the text encoding/json would write for the rounded value, made
// with integer arithmetic, which is several times faster.
func (w *Writer) Fixed(f float64, decimals int) {
	w.sep()
	w.B = AppendFixed(w.B, f, decimals)
}

// Int writes an integer.
func (w *Writer) Int(i int64) {
	w.sep()
	w.B = strconv.AppendInt(w.B, i, 10)
}

// Bool writes true or false.
func (w *Writer) Bool(b bool) {
	w.sep()
	w.B = strconv.AppendBool(w.B, b)
}

// Time writes t as an RFC 3339 string in UTC, to the second.
func (w *Writer) Time(t time.Time) {
	w.sep()
	w.B = append(w.B, '"')
	w.B = t.UTC().AppendFormat(w.B, time.RFC3339)
	w.B = append(w.B, '"')
}

// Null writes null.
func (w *Writer) Null() {
	w.sep()
	w.B = append(w.B, "null"...)
}

// Elem writes what must come before a value the caller then appends to B
// itself, such as an object written with constant key strings and the
// Append functions: a table row whose keys are known at compile time costs
// one append per key instead of a quote, a copy and a colon.
func (w *Writer) Elem() {
	w.sep()
}

// Raw writes already encoded JSON as the next value.
func (w *Writer) Raw(b []byte) {
	w.sep()
	w.B = append(w.B, b...)
}

// AppendFloat appends f as a JSON number, or null when f is not finite.
// It keeps the shortest representation that reads back to f and uses an
// exponent only for very large or very small magnitudes, as
// encoding/json does.
func AppendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	abs := math.Abs(f)
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
		// Trim "e-07" to "e-7" like encoding/json.
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
		return dst
	}
	return strconv.AppendFloat(dst, f, 'f', -1, 64)
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

// AppendFixed appends f rounded half away from zero to decimals places,
// trailing zeros trimmed; see Writer.Fixed. Magnitudes whose scaled value
// reaches 1e15 (where a double no longer holds every digit) fall back to
// AppendFloat of the rounded value.
func AppendFixed(dst []byte, f float64, decimals int) []byte {
	if decimals < 0 || decimals >= len(pow10) {
		panic("jsonw: decimals out of range")
	}
	if f == 0 { // a third of a timeline's amounts: no contribution, event or pension that year
		return append(dst, '0')
	}
	scaled := math.Round(f * pow10[decimals])
	if !(math.Abs(scaled) < 1e15) { // also NaN and the infinities
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return append(dst, "null"...)
		}
		return AppendFloat(dst, scaled/pow10[decimals]) // beyond, a double cannot hold every digit
	}
	n := int64(scaled)
	if n < 0 {
		dst = append(dst, '-')
		n = -n
	}
	return AppendScaled(dst, uint64(n), decimals)
}

// pairs holds "00" to "99": one lookup writes two digits, halving the
// divisions a number costs.
const pairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// AppendScaled appends the fixed-point value u / 10^decimals (decimals 0 to
// 8): u counts the smallest unit, such as cents with decimals 2. The
// fraction's trailing zeros are trimmed and a whole value has no point, so
// 12345 with 2 decimals is 123.45, 12340 is 123.4 and 12300 is 123.
func AppendScaled(dst []byte, u uint64, decimals int) []byte {
	switch decimals { // constant divisors become multiplications
	case 0:
		return appendUint(dst, u)
	case 2: // cents
		dst = appendUint(dst, u/100)
		return appendFrac2(dst, uint32(u%100), true)
	case 4: // rates
		dst = appendUint(dst, u/1e4)
		hi, lo := uint32(u%1e4/100), uint32(u%100)
		if lo == 0 {
			return appendFrac2(dst, hi, true)
		}
		dst = append(dst, '.', pairs[hi*2], pairs[hi*2+1])
		return appendFrac2(dst, lo, false)
	}
	if decimals < 0 || decimals >= len(pow10) {
		panic("jsonw: decimals out of range")
	}
	var frac uint64
	switch decimals {
	case 1:
		u, frac = u/10, u%10
	case 3:
		u, frac = u/1e3, u%1e3
	case 5:
		u, frac = u/1e5, u%1e5
	case 6:
		u, frac = u/1e6, u%1e6
	case 7:
		u, frac = u/1e7, u%1e7
	default:
		u, frac = u/1e8, u%1e8
	}
	dst = appendUint(dst, u)
	if frac == 0 {
		return dst
	}
	// The fraction's digits, right to left, then its trailing zeros off.
	var b [8]byte
	x, i := uint32(frac), decimals
	for ; i >= 2; i -= 2 {
		q := x / 100
		r := (x - q*100) * 2
		b[i-2], b[i-1] = pairs[r], pairs[r+1]
		x = q
	}
	if i == 1 {
		b[0] = byte('0' + x)
	}
	end := decimals
	for b[end-1] == '0' {
		end--
	}
	dst = append(dst, '.')
	return append(dst, b[:end]...)
}

// appendFrac2 appends the two fraction digits d (0 to 99) without a
// trailing zero, after a point when point is set; d 0 writes nothing.
func appendFrac2(dst []byte, d uint32, point bool) []byte {
	if d == 0 {
		return dst
	}
	if point {
		dst = append(dst, '.')
	}
	if d%10 == 0 {
		return append(dst, byte('0'+d/10))
	}
	return append(dst, pairs[d*2], pairs[d*2+1])
}

// appendUint appends u in decimal, two digits per table lookup, written in
// place at the end of dst.
func appendUint(dst []byte, u uint64) []byte {
	if u < 10 {
		return append(dst, byte('0'+u))
	}
	n := (bits.Len64(u) * 1233) >> 12 // digits - 1 or digits
	if u >= pow10u[n] {
		n++
	}
	l := len(dst)
	dst = append(dst, "00000000000000000000"[:n]...)
	b := dst[l : l+n]
	i := n
	for u >= 100 {
		q := u / 100
		r := (u - q*100) * 2
		i -= 2
		b[i], b[i+1] = pairs[r], pairs[r+1]
		u = q
	}
	if u >= 10 {
		b[0], b[1] = pairs[u*2], pairs[u*2+1]
	} else {
		b[0] = byte('0' + u)
	}
	return dst
}

var pow10u = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
	1e15, 1e16, 1e17, 1e18, 1e19}

const hex = "0123456789abcdef"

// AppendString appends s as a quoted JSON string. Invalid UTF-8 becomes
// U+FFFD; <, > and & are escaped so that the output is safe inside HTML.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendEscape(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			if r == utf8.RuneError {
				dst = append(dst, `\ufffd`...)
			} else {
				dst = append(dst, `\u202`...)
				dst = append(dst, hex[r&0xf])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func appendString(dst, b []byte) []byte {
	// The conversion does not allocate: AppendString only reads s.
	return AppendString(dst, bytesconv.String(b))
}

func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
}
