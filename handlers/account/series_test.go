package account_test

import (
	"fmt"
	"strings"
	"testing"

	"fiplan/handlers/internal/testserver"
)

// yearly is a yearly series of n rows from 1950 with rows edited by edit
// (row index -> the row's JSON).
func yearly(n int, edit map[int]string) string {
	var b strings.Builder
	b.WriteString(`{"name":"DE stocks","currency":"EUR","frequency":"yearly","source":"my own sums","licence":"mine","rows":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if e, ok := edit[i]; ok {
			b.WriteString(e)
			continue
		}
		fmt.Fprintf(&b, `{"year":%d,"stocks":0.07,"bonds":0.03,"inflation":0.02}`, 1950+i)
	}
	b.WriteString(`]}`)
	return b.String()
}

func TestSeriesRoutes(t *testing.T) {
	h := testserver.New(t)
	cf := newConformer(t, h)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	r := cf.check(h.Do("POST", "/api/v1/user/series", yearly(30, nil), tok...), "POST", "/api/v1/user/series")
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	id := r.Data()["id"].(string)
	if d := r.Data(); d["rowCount"] != 30.0 || d["first"] != "1950" || d["last"] != "1979" || d["currency"] != "EUR" {
		t.Fatalf("created %v", d)
	}
	// CSV, monthly, with the other fields as query parameters
	var csv strings.Builder
	csv.WriteString("# my monthly sums\nyear,month,stocks,bonds\n")
	for i := range 72 {
		fmt.Fprintf(&csv, "%d,%d,0.01,0.002\n", 2000+i/12, i%12+1)
	}
	r = h.Do("POST", "/api/v1/user/series?name=m&currency=GBP&frequency=monthly&source=me&licence=CC0", csv.String(), append(tok, "Content-Type", "text/csv")...)
	if r.Status != 201 || r.Data()["first"] != "2000-01" || r.Data()["last"] != "2005-12" {
		t.Fatalf("CSV create: %d %s", r.Status, r.Raw)
	}
	list := cf.check(h.Do("GET", "/api/v1/user/series", "", tok...), "GET", "/api/v1/user/series")
	if n := len(list.Data()["series"].([]any)); n != 2 {
		t.Fatalf("listed %d series: %s", n, list.Raw)
	}
	got := cf.check(h.Do("GET", "/api/v1/user/series/"+id, "", tok...), "GET", "/api/v1/user/series/{id}")
	if rows := got.Data()["rows"].([]any); len(rows) != 30 || rows[29].(map[string]any)["year"] != 1979.0 {
		t.Fatalf("get: %s", got.Raw)
	}
	// another user sees none of it
	bob := testserver.Bearer(h.Token("bob", "free", ""))
	testserver.ExpectError(t, h.Do("GET", "/api/v1/user/series/"+id, "", bob...), 404, "NOT_FOUND")
	testserver.ExpectError(t, h.Do("DELETE", "/api/v1/user/series/"+id, "", bob...), 404, "NOT_FOUND")
	// export carries the series with their rows; erasure removes them
	ex := h.Do("GET", "/api/v1/user/export", "", tok...)
	if s := ex.Data()["series"].([]any); len(s) != 2 || len(s[0].(map[string]any)["rows"].([]any)) != 30 {
		t.Fatalf("export: %.400s", ex.Raw)
	}
	if r := h.Do("DELETE", "/api/v1/user", "", tok...); r.Status != 204 {
		t.Fatalf("erase: %d %s", r.Status, r.Raw)
	}
	if s := h.Do("GET", "/api/v1/user/export", "", tok...).Data()["series"].([]any); len(s) != 0 {
		t.Fatalf("series after erase: %v", s)
	}
	testserver.ExpectError(t, h.Do("GET", "/api/v1/user/series/"+id, "", tok...), 404, "NOT_FOUND")
}

// Each refusal is a 400 naming the row and field.
func TestSeriesValidation(t *testing.T) {
	h := testserver.New(t)
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	for _, c := range []struct{ name, body, path string }{
		{"gap", yearly(10, map[int]string{4: `{"year":1955,"stocks":0.1,"bonds":0,"inflation":0}`}), "rows[4]"},
		{"duplicate", yearly(10, map[int]string{4: `{"year":1953,"stocks":0.1,"bonds":0,"inflation":0}`}), "rows[4]"},
		{"out of order", yearly(10, map[int]string{4: `{"year":1940,"stocks":0.1,"bonds":0,"inflation":0}`}), "rows[4]"},
		{"month in a yearly series", yearly(10, map[int]string{2: `{"year":1952,"month":1,"stocks":0.1,"bonds":0,"inflation":0}`}), "rows[2].month"},
		{"inflation on some rows", yearly(10, map[int]string{3: `{"year":1953,"stocks":0.1,"bonds":0}`}), "rows[3].inflation"},
		{"too short", yearly(4, nil), "rows"},
		{"unknown currency", strings.Replace(yearly(10, nil), `"EUR"`, `"XQQ"`, 1), "currency"},
		{"monthly return", strings.Replace(strings.Replace(yearly(72, nil), `"yearly"`, `"monthly"`, 1), `{"year":1950,"stocks":0.07`, `{"year":1950,"month":1,"stocks":3.5`, 1), "rows[0].stocks"},
	} {
		r := h.Do("POST", "/api/v1/user/series", c.body, tok...)
		expectField(t, r, "VALIDATION_ERROR", c.path)
	}
	// a month's return above +300% in CSV names its row
	csv := "year,month,stocks,bonds\n"
	for i := range 60 {
		s := "0.01"
		if i == 7 {
			s = "3.2"
		}
		csv += fmt.Sprintf("%d,%d,%s,0\n", 1990+i/12, i%12+1, s)
	}
	r := h.Do("POST", "/api/v1/user/series?name=m&currency=EUR&frequency=monthly&source=me&licence=mine", csv, append(tok, "Content-Type", "text/csv")...)
	expectField(t, r, "VALIDATION_ERROR", "rows[7].stocks")
	r = h.Do("POST", "/api/v1/user/series?currency=EUR&frequency=monthly&source=me&licence=mine", csv, append(tok, "Content-Type", "text/csv")...)
	expectField(t, r, "VALIDATION_ERROR", "name")
	// other media types stay refused
	testserver.ExpectError(t, h.Do("POST", "/api/v1/user/series", csv, append(tok, "Content-Type", "text/plain")...), 415, "UNSUPPORTED_MEDIA_TYPE")
	// at most 20 series
	for i := range 20 {
		if r := h.Do("POST", "/api/v1/user/series", yearly(5, nil), tok...); r.Status != 201 {
			t.Fatalf("series %d: %d %s", i, r.Status, r.Raw)
		}
	}
	testserver.ExpectError(t, h.Do("POST", "/api/v1/user/series", yearly(5, nil), tok...), 409, "CONFLICT")
	if n := len(h.Do("GET", "/api/v1/user/series", "", tok...).Data()["series"].([]any)); n != 20 {
		t.Fatalf("%d series listed after the refusal", n)
	}
}
