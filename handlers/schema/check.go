package schema

import (
	"bytes"
	"math"
	"reflect"
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"
)

// A decoded value checked against its field's constraints (range,
// length, enum, format) and the messages each failure reads.

// mismatch reports a wrong JSON type and skips the value.
func (d *decoder) mismatch(f *field) {
	d.fail("must be " + article(f))
	d.skip()
}

func article(f *field) string {
	switch f.kind {
	case kInteger:
		return "an integer"
	case kObject, kRaw:
		return "an object"
	case kName:
		return "a string or an array of strings"
	case kArray:
		return "an array"
	case kTime:
		return "a date-time string (RFC 3339)"
	}
	return "a " + kindNames[f.kind]
}

func (d *decoder) setNumber(f *field, p unsafe.Pointer, x float64) {
	if msg := msgRange(f, x); msg != "" {
		d.fail(msg)
		return
	}
	if f.kind == kInteger && x != math.Trunc(x) {
		d.fail("must be an integer")
		return
	}
	switch f.gokind {
	case reflect.Float64:
		*(*float64)(p) = x
	case reflect.Int:
		*(*int)(p) = int(x)
	case reflect.Int64:
		*(*int64)(p) = int64(x)
	}
}

func msgRange(f *field, x float64) string {
	if math.IsInf(x, 0) {
		return "is out of range"
	}
	if f.hasMin && (x < f.min || f.xmin && x == f.min) {
		if f.xmin {
			return "must be greater than " + fmtNum(f.min)
		}
		return "must be at least " + fmtNum(f.min)
	}
	if f.hasMax && (x > f.max || f.xmax && x == f.max) {
		if f.xmax {
			return "must be less than " + fmtNum(f.max)
		}
		return "must be at most " + fmtNum(f.max)
	}
	return ""
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func (d *decoder) setString(f *field, p unsafe.Pointer, s []byte) {
	if f.kind == kTime {
		t, err := time.Parse(time.RFC3339, string(s))
		if err != nil {
			d.fail("must be a date-time string (RFC 3339)")
			return
		}
		*(*time.Time)(p) = t
		return
	}
	if bytes.IndexByte(s, 0) >= 0 {
		d.fail(MsgNUL)
		return
	}
	if f.enum != nil {
		for _, v := range f.enum {
			if v == string(s) {
				*(*string)(p) = v // the declaration's own string: no allocation
				return
			}
		}
		d.fail("must be one of: " + joinEnum(f.enum))
		return
	}
	n := utf8.RuneCount(s)
	if f.minLen >= 0 && n < f.minLen {
		if f.minLen == 1 {
			d.fail("must not be empty")
		} else {
			d.fail("must be at least " + strconv.Itoa(f.minLen) + " characters")
		}
		return
	}
	if f.maxLen >= 0 && n > f.maxLen {
		d.fail("must be at most " + strconv.Itoa(f.maxLen) + " characters")
		return
	}
	if f.check != nil {
		if msg := f.check(string(s)); msg != "" {
			d.fail(msg)
			return
		}
	}
	*(*string)(p) = string(s)
}

func joinEnum(list []string) string {
	n := 0
	for _, v := range list {
		n += len(v) + 2
	}
	b := make([]byte, 0, n)
	for i, v := range list {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, v...)
	}
	return string(b)
}
