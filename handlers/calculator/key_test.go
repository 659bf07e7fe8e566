package calculator

import (
	"bytes"
	"reflect"
	"testing"
)

// fill gives every pointer a value and every slice one element, so that
// every field of the request is reachable.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fill(v.Elem())
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		fill(v.Index(0))
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i))
		}
	}
}

// leaves calls f with the path and value of every scalar field under v,
// and of every pointer and slice (whose absence is a change too).
func leaves(v reflect.Value, path string, f func(path string, v reflect.Value)) {
	switch v.Kind() {
	case reflect.Pointer:
		f(path, v)
		leaves(v.Elem(), path, f)
	case reflect.Slice:
		f(path, v)
		leaves(v.Index(0), path+"[0]", f)
	case reflect.Struct:
		for i := range v.NumField() {
			leaves(v.Field(i), path+"."+v.Type().Field(i).Name, f)
		}
	default:
		f(path, v)
	}
}

// Every field of the request is part of the cache key: changing any one
// of them, or leaving out any optional one, changes the key. A field added
// to the declaration but not to appendKey fails here.
func TestCacheKeyHoldsEveryField(t *testing.T) {
	var r calcRequest
	fill(reflect.ValueOf(&r).Elem())
	r.Output = "yearly" // every counts only with yearly
	*r.Every = 7
	want := appendKey(nil, &r, 2026, false)
	n := 0
	leaves(reflect.ValueOf(&r).Elem(), "", func(path string, v reflect.Value) {
		old := reflect.New(v.Type()).Elem()
		old.Set(v)
		switch v.Kind() {
		case reflect.Float64:
			v.SetFloat(v.Float() + 0.5)
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 3)
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Pointer, reflect.Slice:
			v.SetZero()
		default:
			t.Fatalf("%s: a %s the test cannot change", path, v.Kind())
		}
		if bytes.Equal(appendKey(nil, &r, 2026, false), want) {
			t.Errorf("changing %s leaves the key as it was", path)
		}
		v.Set(old)
		n++
	})
	if !bytes.Equal(appendKey(nil, &r, 2026, false), want) {
		t.Fatal("restoring every field did not restore the key")
	}
	if n < 60 {
		t.Fatalf("only %d fields visited", n)
	}
	if bytes.Equal(appendKey(nil, &r, 2026, true), want) {
		t.Error("CSV and JSON share a key")
	}
	// The default start year counts only when startYear is left out.
	if !bytes.Equal(appendKey(nil, &r, 1990, false), want) {
		t.Error("the default year changed the key of a request that sets startYear")
	}
	r.StartYear = nil
	if bytes.Equal(appendKey(nil, &r, 1990, false), appendKey(nil, &r, 1991, false)) {
		t.Error("two default years share a key")
	}
}

func TestWantsCSV(t *testing.T) {
	for accept, want := range map[string]bool{
		"":                                  false,
		"text/csv":                          true,
		"TEXT/CSV; charset=utf-8":           true,
		"text/csv, application/json":        false,
		"application/json;q=0.9, text/csv":  true,
		"text/csv;q=0.5, application/json":  false,
		"text/csv;q=0":                      false,
		"*/*, text/csv;q=0.1":               true,
		"text/*":                            false,
		"text/csv;q=bogus":                  true,
		"application/xml, text/csv ; q=0.2": true,
	} {
		if got := wantsCSV([]byte(accept)); got != want {
			t.Errorf("Accept %q: %v, want %v", accept, got, want)
		}
	}
}

func TestAppendCSVField(t *testing.T) {
	for in, want := range map[string]string{
		"plain":        "plain",
		"a,b":          `"a,b"`,
		`say "hi"`:     `"say ""hi"""`,
		"two\r\nlines": "\"two\r\nlines\"",
		"":             "",
	} {
		if got := string(appendCSVField(nil, in)); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}
