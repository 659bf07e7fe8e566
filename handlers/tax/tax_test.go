package tax_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"fiplan/compute/tax"
	"fiplan/data/program"
	"fiplan/handlers/errcode"
	"fiplan/handlers/internal/testserver"
)

// taxPaths are every /tax route, for checks that concern them all.
var taxPaths = [][2]string{
	{"GET", "/api/v1/tax/countries"},
	{"POST", "/api/v1/tax/calculate"},
	{"GET", "/api/v1/tax/programs"},
	{"GET", "/api/v1/tax/programs/it-pensioner-7"},
	{"POST", "/api/v1/tax/optimize"},
}

func TestTaxRoutesNeedCredentials(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	for _, p := range taxPaths {
		body := ""
		if p[0] == "POST" {
			body = `{"country":"US","income":{"employment":50000}}`
		}
		testserver.ExpectError(t, h.Do(p[0], p[1], body), 401, errcode.Unauthorized)
		testserver.ExpectError(t, h.Do(p[0], p[1], body, "Authorization", "Bearer nonsense"), 401, errcode.Unauthorized)
	}
}

func TestTaxCountries(t *testing.T) {
	h := testserver.New(t)
	r := h.Do("GET", "/api/v1/tax/countries", "", testserver.Bearer(h.Token("alice", "free", ""))...)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	list := r.Body["data"].([]any)
	codes := h.Taxes().Codes()
	meta := r.Body["meta"].(map[string]any)
	if len(list) != len(codes) || meta["total"] != float64(len(codes)) || meta["limit"] != float64(len(codes)) || meta["offset"] != 0.0 {
		t.Fatalf("%d countries, meta %v; the table has %d", len(list), meta, len(codes))
	}
	for i, x := range list {
		c := x.(map[string]any)
		sys, _ := h.Taxes().ByCountry(codes[i])
		if c["code"] != sys.Country || c["name"] != sys.Name || c["currency"] != sys.Currency || c["latestYear"] != float64(sys.Latest()) {
			t.Errorf("%s: %v", codes[i], c)
		}
		var years []int
		for _, y := range c["years"].([]any) {
			years = append(years, int(y.(float64)))
		}
		if !slices.Equal(years, sys.Years()) {
			t.Errorf("%s years %v, want %v", sys.Country, years, sys.Years())
		}
		if len(c["regions"].([]any)) != len(sys.Regions) || len(c["notModelled"].([]any)) != len(sys.NotModelled) {
			t.Errorf("%s regions or notModelled differ", sys.Country)
		}
		checkLocalTax(t, sys, c["localTax"])
		m := c["modelled"].(map[string]any)
		latest, _ := sys.Year(sys.Latest())
		if len(m["rules"].([]any)) != len(latest.Rules) || len(m["notes"].([]any)) < len(sys.Notes) {
			t.Errorf("%s modelled %v", sys.Country, m)
		}
		for _, id := range c["programs"].([]any) {
			p, ok := h.Programs().ByID(id.(string))
			if !ok || p.Country != sys.Country {
				t.Errorf("%s lists program %v", sys.Country, id)
			}
		}
	}
}

// taxCalc posts a calculation as alice.
func taxCalc(t *testing.T, h *testserver.Harness, body string) *testserver.Resp {
	t.Helper()
	return h.Do("POST", "/api/v1/tax/calculate", body, testserver.Bearer(h.Token("alice", "free", ""))...)
}

// sameResult checks a calculate response against the engine's result.
func sameResult(t *testing.T, what string, d map[string]any, r *tax.Result) {
	t.Helper()
	money := func(key string, want float64) {
		t.Helper()
		if got, ok := d[key].(float64); !ok || math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: %s = %v, engine %v", what, key, d[key], want)
		}
	}
	if d["country"] != r.Country || d["year"] != float64(r.Year) || d["currency"] != r.Currency || d["marginalPart"] != r.MarginalPart.String() {
		t.Errorf("%s: header %v %v %v %v", what, d["country"], d["year"], d["currency"], d["marginalPart"])
	}
	money("grossIncome", r.GrossIncome)
	money("incomeTax", r.IncomeTax)
	money("socialContributions", r.SocialContributions)
	money("capitalTax", r.CapitalTax)
	money("totalTax", r.TotalTax)
	money("afterTaxIncome", math.Round((r.GrossIncome-r.TotalTax)*100)/100)
	if r.Region != "" {
		money("regionalTax", r.RegionalTax)
		if d["region"] != r.Region {
			t.Errorf("%s: region %v", what, d["region"])
		}
	} else if _, ok := d["regionalTax"]; ok || d["region"] != nil {
		t.Errorf("%s: regionalTax or region without a region", what)
	}
	rate := func(key string, got any, want float64) {
		t.Helper()
		if g, ok := got.(float64); !ok || math.Abs(g-want) > 5e-7+1e-12 { // written with 6 decimals
			t.Errorf("%s: %s = %v, engine %v", what, key, got, want)
		}
	}
	rate("effectiveRate", d["effectiveRate"], r.EffectiveRate)
	rate("marginalRate", d["marginalRate"], r.MarginalRate)
	lines := d["breakdown"].([]any)
	if len(lines) != r.NLines || d["truncated"] != r.Truncated {
		t.Fatalf("%s: %d lines, engine %d", what, len(lines), r.NLines)
	}
	for i, x := range lines {
		l, want := x.(map[string]any), r.Lines[i]
		if l["rule"] != want.Rule || l["kind"] != want.Kind.String() || l["category"] != want.Category.String() || l["label"] != want.Label {
			t.Errorf("%s line %d: %v, engine %+v", what, i, l, want)
		}
		for _, f := range []struct {
			key  string
			want float64
			tol  float64
		}{{"base", want.Base, 0.0051}, {"amount", want.Amount, 0.0051}, {"rate", want.Rate, 5e-7 + 1e-12}} { // rates are written with 6 decimals
			if got := l[f.key].(float64); math.Abs(got-f.want) > f.tol {
				t.Errorf("%s line %d: %s %v, engine %v", what, i, f.key, got, f.want)
			}
		}
	}
	totals := d["rules"].([]any)
	if len(totals) != r.NTotals {
		t.Fatalf("%s: %d rule totals, engine %d", what, len(totals), r.NTotals)
	}
	for i, x := range totals {
		if tt := x.(map[string]any); tt["rule"] != r.Totals[i].Rule || tt["amount"] != r.Totals[i].Amount {
			t.Errorf("%s total %d: %v, engine %+v", what, i, tt, r.Totals[i])
		}
	}
}

// regionFor is the region the route taxes a request in: the one it names,
// else the country's default (its localTax region); false when the year
// does not model the default, which the route refuses. A joint return
// whose default region's rules file no couple is taxed without one.
func regionFor(sys *tax.System, year int, region string, joint bool) (string, bool) {
	def := sys.LocalTax.Region
	switch {
	case region != "" || def == "":
		return region, true
	case joint && sys.HasJoint(year) && !sys.HasJointIn(year, def):
		return "", true
	case !sys.Covers(year, def):
		return "", false
	}
	return def, true
}

func incomeJSON(in tax.Income) string {
	b, _ := json.Marshal(map[string]float64{"employment": in.Employment, "selfEmployment": in.SelfEmployment,
		"pension": in.Pension, "interest": in.Interest, "dividends": in.Dividends, "capitalGains": in.CapitalGains})
	return string(b)
}

// The route answers what compute/tax answers, for every country, year and
// region the table has.
func TestTaxCalculateMatchesEngine(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	incomes := []tax.Income{
		{},
		{Employment: 85000, Interest: 1200, Dividends: 3000, CapitalGains: 5000},
		{SelfEmployment: 42000, Pension: 18000},
		{Pension: 30000, Dividends: 25000, CapitalGains: 20000},
		{Employment: 350000, Interest: 10000},
	}
	for _, sys := range h.Taxes().Countries() {
		regions := []string{""}
		for _, rg := range sys.Regions {
			regions = append(regions, rg.Code)
		}
		for _, y := range sys.Years() {
			for _, region := range regions {
				if !sys.Covers(y, region) {
					continue // a validation error, checked in TestTaxCalculateValidation
				}
				taxed, ok := regionFor(sys, y, region, false)
				for _, in := range incomes {
					body := fmt.Sprintf(`{"country":%q,"year":%d,"region":%q,"income":%s}`, strings.ToLower(sys.Country), y, strings.ToLower(region), incomeJSON(in))
					r := taxCalc(t, h, body)
					if !ok {
						testserver.ExpectError(t, r, 400, "VALIDATION_ERROR")
						if path, msg := detailPath(t, r); path != "region" || !strings.Contains(msg, sys.LocalTax.Region) {
							t.Errorf("%s: refused on %s: %s", body, path, msg)
						}
						continue
					}
					var want tax.Result
					if err := tax.Calculate(sys, y, &in, taxed, &want); err != nil {
						t.Fatal(err)
					}
					if r.Status != 200 {
						t.Fatalf("%s: %d %s", body, r.Status, r.Raw)
					}
					sameResult(t, body, r.Data(), &want)
				}
			}
		}
	}
	// Year defaults to the latest, absent parts to 0, the region to the
	// country's default.
	us, _ := h.Taxes().ByCountry("US")
	var want tax.Result
	if err := tax.Calculate(us, us.Latest(), &tax.Income{Pension: 40000}, us.LocalTax.Region, &want); err != nil {
		t.Fatal(err)
	}
	r := taxCalc(t, h, `{"country":"US","income":{"pension":40000}}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	sameResult(t, "defaults", r.Data(), &want)
	if r.Data()["program"] != nil {
		t.Errorf("program %v without one", r.Data()["program"])
	}
}

// A program answers what tax.ApplyRegime answers for the program's rules
// written by hand, with the covered parts chosen by domesticIncome.
func TestTaxCalculateProgramMatchesEngine(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	nl, _ := h.Taxes().ByCountry("NL")
	gb, _ := h.Taxes().ByCountry("GB")

	// nl-30-ruling: 30% of domestic employment income exempt, up to 246,000.
	ruling := tax.Regime{ID: "nl-30-ruling"}
	ruling.Add(tax.RegimeRule{Treatment: tax.TreatPartialExempt, Fraction: 0.3, Cap: 246000, Parts: [tax.NumParts]bool{tax.Employment: true}})
	// gb-fig: foreign self-employment, interest, dividends and gains exempt.
	fig := tax.Regime{ID: "gb-fig"}
	fig.Add(tax.RegimeRule{Treatment: tax.TreatExempt, Parts: [tax.NumParts]bool{tax.SelfEmployment: true, tax.Interest: true, tax.Dividends: true, tax.CapitalGains: true}})
	// gb-fig with dividends earned in the UK: they stay taxed.
	figUK := fig
	figUK.Rules[0].Parts[tax.Dividends] = false
	cases := []struct {
		body string
		sys  *tax.System
		in   tax.Income
		rg   *tax.Regime
	}{
		{`{"country":"NL","income":{"employment":100000},"program":"nl-30-ruling","domesticIncome":["employment"]}`, nl, tax.Income{Employment: 100000}, &ruling},
		{`{"country":"NL","income":{"employment":400000},"program":"nl-30-ruling","domesticIncome":["employment","pension"]}`, nl, tax.Income{Employment: 400000}, &ruling},
		// employment taken as foreign: the domestic rule covers nothing
		{`{"country":"NL","income":{"employment":100000},"program":"nl-30-ruling"}`, nl, tax.Income{Employment: 100000}, &tax.Regime{ID: "nl-30-ruling"}},
		{`{"country":"GB","year":2025,"income":{"employment":60000,"dividends":20000,"capitalGains":30000},"program":"gb-fig"}`, gb, tax.Income{Employment: 60000, Dividends: 20000, CapitalGains: 30000}, &fig},
		{`{"country":"GB","year":2025,"income":{"employment":60000,"dividends":20000,"capitalGains":30000},"program":"gb-fig","domesticIncome":["dividends"]}`, gb, tax.Income{Employment: 60000, Dividends: 20000, CapitalGains: 30000}, &figUK},
	}
	for _, c := range cases {
		var want tax.Result
		year := c.sys.Latest()
		var req struct{ Year int }
		if err := json.Unmarshal([]byte(c.body), &req); err != nil {
			t.Fatal(err)
		}
		if req.Year != 0 {
			year = req.Year // the request names its year; the default is the latest
		}
		eff, err := tax.ApplyRegime(c.sys, year, &c.in, "", c.rg, &want)
		if err != nil {
			t.Fatal(err)
		}
		r := taxCalc(t, h, c.body)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", c.body, r.Status, r.Raw)
		}
		d := r.Data()
		// Labels are the handler's; compare them apart.
		for i := range want.Breakdown() {
			if want.Lines[i].Kind == tax.KindProgram {
				want.Lines[i].Label = d["breakdown"].([]any)[i].(map[string]any)["label"].(string)
			}
		}
		want.Totals[0].Label = d["rules"].([]any)[0].(map[string]any)["label"].(string)
		sameResult(t, c.body, d, &want)
		p := d["program"].(map[string]any)
		prog, _ := h.Programs().ByID(c.rg.ID)
		if p["id"] != prog.ID || p["name"] != prog.Name || p["status"] != string(prog.Status) ||
			p["totalTaxWithout"] != eff.Without || p["relievedIncome"] != eff.Relieved || p["programTax"] != eff.Tax ||
			math.Abs(p["saving"].(float64)-(eff.Without-want.TotalTax)) > 0.005 || len(p["eligibility"].([]any)) != len(prog.Eligibility) {
			t.Errorf("%s: program %v, effect %+v", c.body, p, eff)
		}
	}
}

// detailPath is the path of the first detail of a VALIDATION_ERROR.
func detailPath(t *testing.T, r *testserver.Resp) (path, msg string) {
	t.Helper()
	det, _ := r.Body["details"].([]any)
	if len(det) == 0 {
		t.Fatalf("no details: %s", r.Raw)
	}
	d := det[0].(map[string]any)
	return d["path"].(string), d["message"].(string)
}

func TestTaxCalculateValidation(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	cases := []struct {
		body, code, path, says string
	}{
		{`{"country":"ZZ","income":{}}`, "VALIDATION_ERROR", "country", ", DE, "},
		{`{"country":"USA","income":{}}`, "VALIDATION_ERROR", "country", ""},
		{`{"country":"US","year":2019,"income":{}}`, "VALIDATION_ERROR", "year", "2024, 2025"},
		{`{"country":"US","year":1800,"income":{}}`, "VALIDATION_ERROR", "year", ""},
		{`{"country":"GB","region":"XX","income":{}}`, "VALIDATION_ERROR", "region", "SCT"},
		{`{"country":"DE","region":"BY","income":{}}`, "VALIDATION_ERROR", "region", "no regions"},
		// a default region the year does not model: named, with the regions it does
		{`{"country":"US","year":2024,"income":{"pension":1}}`, "VALIDATION_ERROR", "region", "taxed in NC, which 2024 does not model (it does in 2025, 2026); regions modelled in 2024: none"},
		{`{"country":"DK","year":2024,"income":{"pension":1}}`, "VALIDATION_ERROR", "region", "taxed in KBH, which 2024 does not model (it does in 2025, 2026); regions modelled in 2024: FRB"},
		{`{"country":"CH","year":2024,"income":{"pension":1}}`, "VALIDATION_ERROR", "region", "taxed in ZH, which 2024 does not model"},
		{`{"country":"US","region":"CA","year":2024,"income":{}}`, "VALIDATION_ERROR", "region", "only in other tax years than 2024"},
		{`{"country":"US","year":2024,"region":"NC","income":{}}`, "VALIDATION_ERROR", "region", "only in other tax years than 2024"},
		{`{"country":"US","region":"PR","income":{}}`, "VALIDATION_ERROR", "region", "known: AL, AK, AZ"},
		{`{"country":"NL","program":"nl-nothing","income":{}}`, "VALIDATION_ERROR", "program", "unknown program"},
		{`{"country":"DE","program":"it-pensioner-7","income":{}}`, "VALIDATION_ERROR", "program", "program of IT"},
		{`{"country":"GB","program":"gb-remittance","income":{}}`, "VALIDATION_ERROR", "program", "cannot be calculated"},
		{`{"country":"US","income":{"employment":-1}}`, "VALIDATION_ERROR", "income.employment", ""},
		{`{"country":"US","income":{"pension":1e13}}`, "VALIDATION_ERROR", "income.pension", ""},
		{`{"country":"US","income":{"dividends":"100"}}`, "VALIDATION_ERROR", "income.dividends", ""},
		{`{"country":"US","income":{"salary":100}}`, "VALIDATION_ERROR", "income.salary", ""},
		{`{"country":"US","income":{},"domesticIncome":["wages"]}`, "VALIDATION_ERROR", "domesticIncome[0]", ""},
		{`{"income":{"employment":1}}`, "MISSING_FIELD", "country", ""},
		{`{"country":"US"}`, "MISSING_FIELD", "income", ""},
	}
	for _, c := range cases {
		r := taxCalc(t, h, c.body)
		testserver.ExpectError(t, r, 400, c.code)
		path, msg := detailPath(t, r)
		if path != c.path || !strings.Contains(msg, c.says) {
			t.Errorf("%s: %s %q, want %s %q", c.body, path, msg, c.path, c.says)
		}
		if c.code == "MISSING_FIELD" && !strings.Contains(r.Body["error"].(string), c.path) {
			t.Errorf("%s: error %q does not name %s", c.body, r.Body["error"], c.path)
		}
	}
	testserver.ExpectError(t, taxCalc(t, h, `{"country":"US","income":{}} x`), 400, "INVALID_JSON")
}

func TestTaxPrograms(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	tok := testserver.Bearer(h.Token("alice", "free", ""))
	get := func(q string) *testserver.Resp { return h.Do("GET", "/api/v1/tax/programs"+q, "", tok...) }
	all := h.Programs().All()

	r := get("?limit=200")
	list := r.Body["data"].([]any)
	if r.Status != 200 || len(list) != len(all) || r.Body["meta"].(map[string]any)["total"] != float64(len(all)) {
		t.Fatalf("%d, %d programs of %d", r.Status, len(list), len(all))
	}
	for i, x := range list {
		p := x.(map[string]any)
		want := all[i]
		if p["id"] != want.ID || p["country"] != want.Country || p["name"] != want.Name || p["summary"] != want.Summary ||
			p["status"] != string(want.Status) || p["statusAsOf"] != want.StatusAsOf || len(p["sources"].([]any)) != len(want.Sources) || len(p["eligibility"].([]any)) != len(want.Eligibility) {
			t.Errorf("program %d: %v", i, p["id"])
		}
		if (want.Rate == nil) != (p["rate"] == nil) || (want.DurationYears == nil) != (p["durationYears"] == nil) {
			t.Errorf("%s: rate %v, durationYears %v", want.ID, p["rate"], p["durationYears"])
		}
		_, hasSystem := h.Taxes().ByCountry(want.Country)
		if p["calculable"] == true && (!hasSystem || len(want.Rules) == 0) || p["calculable"] == false && p["calculableNote"] == "" {
			t.Errorf("%s: calculable %v (%v)", want.ID, p["calculable"], p["calculableNote"])
		}
	}

	// Filters, any case, and paging.
	for _, q := range []struct {
		query  string
		keep   func(country, status string) bool
		paging bool
	}{
		{"?country=it", func(c, _ string) bool { return c == "IT" }, false},
		{"?status=closed", func(_, s string) bool { return s == "closed" }, false},
		{"?country=GB&status=open", func(c, s string) bool { return c == "GB" && s == "open" }, false},
		{"?country=IS", func(c, _ string) bool { return c == "IS" }, false},
		{"?limit=5&offset=3", func(_, _ string) bool { return true }, true},
	} {
		r := get(q.query)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", q.query, r.Status, r.Raw)
		}
		var want []string
		for _, p := range all {
			if q.keep(p.Country, string(p.Status)) {
				want = append(want, p.ID)
			}
		}
		total := len(want)
		if q.paging {
			want = want[3:8]
		}
		var got []string
		for _, x := range r.Body["data"].([]any) {
			got = append(got, x.(map[string]any)["id"].(string))
		}
		if !slices.Equal(got, want) && len(got)+len(want) > 0 || r.Body["meta"].(map[string]any)["total"] != float64(total) {
			t.Errorf("%s: %v (meta %v), want %v", q.query, got, r.Body["meta"], want)
		}
	}

	for _, q := range []struct{ query, path string }{
		{"?status=pending", "status"},
		{"?status=", "status"},
		{"?country=PRT", "country"},
		{"?country=1T", "country"},
		{"?limit=0", "limit"},
		{"?offset=-1", "offset"},
	} {
		r := get(q.query)
		testserver.ExpectError(t, r, 400, "VALIDATION_ERROR")
		if path, _ := detailPath(t, r); path != q.path {
			t.Errorf("%s: path %s, want %s", q.query, path, q.path)
		}
	}

	r = h.Do("GET", "/api/v1/tax/programs/it-pensioner-7", "", tok...)
	if r.Status != 200 || r.Data()["id"] != "it-pensioner-7" || r.Data()["rate"] != 0.07 || r.Data()["country"] != "IT" ||
		r.Data()["statusAsOf"] != "2026-11-23" {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	testserver.ExpectError(t, h.Do("GET", "/api/v1/tax/programs/xx-nothing", "", tok...), 404, errcode.NotFound)
}

// Every program's rules convert for the engine when its country has tax
// parameters, and the labels of its lines say what they do.
func TestTaxProgramsConvert(t *testing.T) {
	h := testserver.New(t)
	for _, p := range h.Programs().All() {
		sys, _ := h.Taxes().ByCountry(p.Country)
		tp := struct {
			p     program.Program
			offer tax.Offer
		}{p, p.Offer(sys, nil)}
		if sys == nil || len(tp.p.Rules) == 0 {
			if tp.offer.Why == "" {
				t.Errorf("%s: calculable without a system or rules", tp.p.ID)
			}
			continue
		}
		if tp.offer.Why != "" {
			t.Errorf("%s: %s", tp.p.ID, tp.offer.Why)
			continue
		}
		for i, sr := range tp.offer.Rules {
			for p, on := range sr.Rule.Parts {
				if on && sr.Rule.PartLabels[p] == "" {
					t.Errorf("%s rule %d: part %v without a label", tp.p.ID, i, tax.Part(p))
				}
			}
			if tr := sr.Rule.Treatment; (tr == tax.TreatLumpSum || tr == tax.TreatMinimumTax) && sr.Rule.Label == "" {
				t.Errorf("%s rule %d: no label", tp.p.ID, i)
			}
		}
	}
}

// Every /tax response, success or error, matches the schema the OpenAPI
// document gives for its status.
func TestTaxResponsesMatchTheirDocumentedSchemas(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	doc := testserver.LoadOpenAPI(t, h)
	free := testserver.Bearer(h.Token("alice", "free", ""))
	check := func(r *testserver.Resp, method, path string) {
		t.Helper()
		s := doc.Schema(t, "paths", path, method, "responses", fmt.Sprint(r.Status), "content", "application/json", "schema")
		var v any
		if err := json.Unmarshal(r.Raw, &v); err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s %s %d does not match its schema: %v\n%s", method, path, r.Status, err, r.Raw)
		}
	}
	check(h.Do("GET", "/api/v1/tax/countries", "", free...), "get", "/api/v1/tax/countries")
	check(h.Do("GET", "/api/v1/tax/countries", ""), "get", "/api/v1/tax/countries")
	check(h.Do("GET", "/api/v1/tax/programs?limit=200", "", free...), "get", "/api/v1/tax/programs")
	check(h.Do("GET", "/api/v1/tax/programs?status=x", "", free...), "get", "/api/v1/tax/programs")
	for _, p := range h.Programs().All() {
		check(h.Do("GET", "/api/v1/tax/programs/"+p.ID, "", free...), "get", "/api/v1/tax/programs/{id}")
	}
	check(h.Do("GET", "/api/v1/tax/programs/nope", "", free...), "get", "/api/v1/tax/programs/{id}")
	for _, body := range []string{
		`{"country":"GB","region":"SCT","income":{"employment":50000,"dividends":3000,"interest":2000}}`,
		`{"country":"US","income":{"employment":85000,"interest":1200,"dividends":3000,"capitalGains":5000}}`,
		`{"country":"NL","income":{"employment":100000},"program":"nl-30-ruling","domesticIncome":["employment"]}`,
		`{"country":"DE","income":{}}`,
		`{"country":"XX","income":{}}`,
		`{"country":"US"}`,
		`{`,
	} {
		check(taxCalc(t, h, body), "post", "/api/v1/tax/calculate")
	}
	pro := testserver.Bearer(h.Token("bob", "pro", ""))
	for _, body := range []string{
		`{"country":"US","income":{"pension":30000,"dividends":20000,"capitalGains":15000},"monthlyBudgetUSD":4000}`,
		`{"country":"GB","income":{"employment":60000},"candidates":["nl"],"year":2024,"programs":false}`,
		`{"country":"US","income":{}}`,
	} {
		check(h.Do("POST", "/api/v1/tax/optimize", body, pro...), "post", "/api/v1/tax/optimize")
	}
	check(h.Do("POST", "/api/v1/tax/optimize", `{"country":"US","income":{"pension":1}}`, free...), "post", "/api/v1/tax/optimize")
}

func FuzzTaxCalculate(f *testing.F) {
	f.Add([]byte(`{"country":"US","income":{"employment":85000,"interest":1200,"dividends":3000,"capitalGains":5000}}`))
	f.Add([]byte(`{"country":"gb","year":2024,"region":"sct","income":{"selfEmployment":1e12,"pension":1e-300}}`))
	f.Add([]byte(`{"country":"NL","income":{"employment":1e12},"program":"nl-30-ruling","domesticIncome":["employment","employment"]}`))
	f.Add([]byte(`{"country":"GB","income":{"dividends":5e5,"capitalGains":1},"program":"gb-fig","domesticIncome":[]}`))
	f.Add([]byte(`{"country":"DE","year":2200,"income":{}}`))
	f.Add([]byte(`{"country":"FR","income":{"pension":0,"interest":1e9,"dividends":1e9,"capitalGains":1e9}}`))
	serve := testserver.FuzzRoute(f, "/api/v1/tax/calculate", "free")
	f.Fuzz(func(t *testing.T, body []byte) {
		d := serve(t, body)
		if d == nil {
			return
		}
		sum := d["incomeTax"].(float64) + d["socialContributions"].(float64) + d["capitalTax"].(float64)
		if rt, ok := d["regionalTax"].(float64); ok {
			sum += rt
		}
		if math.Abs(sum-d["totalTax"].(float64)) > 0.011 {
			t.Fatalf("categories add up to %v, totalTax %v", sum, d["totalTax"])
		}
	})
}

func taxOptimize(t *testing.T, h *testserver.Harness, body string) *testserver.Resp {
	t.Helper()
	return h.Do("POST", "/api/v1/tax/optimize", body, testserver.Bearer(h.Token("bob", "pro", ""))...)
}

func TestTaxOptimizeIsPro(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := `{"country":"US","income":{"pension":40000}}`
	r := h.Do("POST", "/api/v1/tax/optimize", body, testserver.Bearer(h.Token("alice", "free", ""))...)
	testserver.ExpectError(t, r, 403, errcode.SubscriptionRequired)
	if r = taxOptimize(t, h, body); r.Status != 200 {
		t.Fatalf("pro: %d %s", r.Status, r.Raw)
	}
}

func scaledIncome(in *tax.Income, f float64) tax.Income {
	return tax.Income{Employment: in.Employment * f, SelfEmployment: in.SelfEmployment * f, Pension: in.Pension * f,
		Interest: in.Interest * f, Dividends: in.Dividends * f, CapitalGains: in.CapitalGains * f}
}

// An testserver.Option as the engine computes it, to compare a suggestion with.
type wantOption struct {
	gross, tax, usd float64
}

// engineOption computes a suggestion's figures with compute/tax and the fx
// table, as the route's description says.
func engineOption(t *testing.T, h *testserver.Harness, from string, in tax.Income, s map[string]any, domestic [tax.NumParts]bool) wantOption {
	t.Helper()
	sys, ok := h.Taxes().ByCountry(s["country"].(string))
	if !ok {
		t.Fatalf("suggestion of unknown country %v", s["country"])
	}
	f, _ := h.FX().Convert(1, from, sys.Currency)
	usd, _ := h.FX().Convert(1, sys.Currency, "USD")
	inC := scaledIncome(&in, f)
	var rg *tax.Regime
	if p, ok := s["program"].(map[string]any); ok {
		rg = &tax.Regime{}
		prog, ok := h.Programs().ByID(p["id"].(string))
		if !ok {
			t.Fatalf("suggestion of unknown program %v", p["id"])
		}
		offer := prog.Offer(sys, h.FX())
		offer.Regime(&domestic, rg)
	}
	tt, err := tax.Due(sys, int(s["year"].(float64)), &inC, sys.LocalTax.Region, rg)
	if err != nil {
		t.Fatal(err)
	}
	checkLocalTax(t, sys, s["localTax"])
	return wantOption{gross: inC.Total(), tax: tt, usd: usd}
}

// checkLocalTax checks a localTax value against the country file: null
// without a note, else the region counted (null for none) and the note.
func checkLocalTax(t *testing.T, sys *tax.System, v any) {
	t.Helper()
	lt := sys.LocalTax
	if lt.Note == "" {
		if v != nil {
			t.Errorf("%s: localTax %v, want null", sys.Country, v)
		}
		return
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: localTax %v, want an object", sys.Country, v)
	}
	var want any
	if lt.Region != "" {
		want = lt.Region
	}
	if m["region"] != want || m["note"] != lt.Note {
		t.Errorf("%s: localTax %v, want region %v note %q", sys.Country, m, want, lt.Note)
	}
}

func TestTaxOptimizeRanking(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	in := tax.Income{Pension: 30000, Dividends: 20000, CapitalGains: 15000, Interest: 2000}
	body := `{"country":"GB","income":` + incomeJSON(in) + `,"monthlyBudgetUSD":3500,"withdrawalRate":0.035}`
	r := taxOptimize(t, h, body)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	d := r.Data()
	if d["fxAsOf"] != h.FX().AsOf() || d["country"] != "GB" || d["currency"] != "GBP" || d["year"] != nil {
		t.Errorf("header %v %v %v %v", d["fxAsOf"], d["country"], d["currency"], d["year"])
	}
	sugg := d["suggestions"].([]any)
	countries := map[string]bool{}
	prev := math.Inf(1)
	for i, x := range sugg {
		s := x.(map[string]any)
		if s["rank"] != float64(i+1) {
			t.Errorf("suggestion %d has rank %v", i, s["rank"])
		}
		net := s["afterTaxIncomeUSD"].(float64)
		if net > prev {
			t.Errorf("rank %d: %v after %v: not sorted best first", i+1, net, prev)
		}
		prev = net
		want := engineOption(t, h, "GBP", in, s, [tax.NumParts]bool{})
		got := func(k string) float64 { return s[k].(float64) }
		for _, c := range []struct {
			key        string
			got, value float64
		}{
			{"grossIncome", got("grossIncome"), want.gross},
			{"totalTax", got("totalTax"), want.tax},
			{"afterTaxIncome", got("afterTaxIncome"), want.gross - want.tax},
			{"totalTaxUSD", got("totalTaxUSD"), want.tax * want.usd},
			{"afterTaxIncomeUSD", got("afterTaxIncomeUSD"), (want.gross - want.tax) * want.usd},
			{"gainUSD", got("gainUSD"), got("afterTaxIncomeUSD") - d["current"].(map[string]any)["afterTaxIncomeUSD"].(float64)},
		} {
			if math.Abs(c.got-c.value) > 0.011 {
				t.Errorf("%v %v: %s %v, want %v", s["country"], s["program"], c.key, c.got, c.value)
			}
		}
		if math.Abs(got("effectiveRate")-want.tax/want.gross) > 5e-7 {
			t.Errorf("%v %v: effectiveRate %v, want %v", s["country"], s["program"], got("effectiveRate"), want.tax/want.gross)
		}
		// The FI number: the withdrawal that leaves the budget after tax,
		// divided by the withdrawal rate.
		sys, _ := h.Taxes().ByCountry(s["country"].(string))
		g := got("fiWithdrawal")
		if math.Abs(got("fiNumber")-g/0.035) > 0.2 || math.Abs(got("fiNumberUSD")-got("fiNumber")*want.usd) > 0.2 {
			t.Errorf("%v: fiNumber %v, withdrawal %v", s["country"], s["fiNumber"], g)
		}
		mix := scaledIncome(&in, g/in.Total())
		var rg *tax.Regime
		if p, ok := s["program"].(map[string]any); ok {
			rg = &tax.Regime{}
			off := programOffer(t, h, p["id"].(string)).offer
			off.Regime(&[tax.NumParts]bool{}, rg)
		}
		tt, _ := tax.Due(sys, int(got("year")), &mix, sys.LocalTax.Region, rg)
		if budget := 3500 * 12 / want.usd; math.Abs(g-tt-budget) > 1 {
			t.Errorf("%v: withdrawal %v leaves %v, budget %v", s["country"], g, g-tt, budget)
		}
		if s["program"] == nil {
			countries[s["country"].(string)] = true
			if el := s["eligibility"].([]any); (s["country"] == "GB") != (len(el) == 0) {
				t.Errorf("%v: eligibility %v", s["country"], el)
			}
		} else {
			p := s["program"].(map[string]any)
			tp := programOffer(t, h, p["id"].(string))
			if tp.p.Country != s["country"] || s["country"] == "GB" || tp.p.Status == "closed" || tp.offer.Why != "" {
				t.Errorf("program %v suggested for %v", p["id"], s["country"])
			}
			if len(s["eligibility"].([]any)) != len(tp.p.Eligibility) {
				t.Errorf("%v: eligibility", p["id"])
			}
		}
	}
	// Every country of the table, under its normal rules, unless the
	// exchange-rate table has no rate for its currency (then it is skipped,
	// saying so).
	noRate := 0
	for _, x := range d["skipped"].([]any) {
		s := x.(map[string]any)
		if s["program"] == nil && strings.HasPrefix(s["reason"].(string), "no exchange rate") {
			noRate++
		}
	}
	if len(countries)+noRate != len(h.Taxes().Codes()) {
		t.Errorf("normal rules of %d countries and %d without a rate, the table has %d", len(countries), noRate, len(h.Taxes().Codes()))
	}
	cur := d["current"].(map[string]any)
	if cur["country"] != "GB" || cur["program"] != nil || cur["rank"] != nil || cur["gainUSD"] != nil {
		t.Errorf("current %v", cur)
	}
	for _, x := range d["skipped"].([]any) {
		s := x.(map[string]any)
		if s["reason"] == "" {
			t.Errorf("skipped without a reason: %v", s)
		}
	}
}

// A candidate list is honoured, in any case; domesticIncome and programs
// decide which programs appear.
func TestTaxOptimizeCandidates(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	ids := func(r *testserver.Resp) []string {
		t.Helper()
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		var out []string
		for _, x := range r.Data()["suggestions"].([]any) {
			s := x.(map[string]any)
			id := s["country"].(string)
			if p, ok := s["program"].(map[string]any); ok {
				id = p["id"].(string)
			}
			out = append(out, id)
		}
		slices.Sort(out)
		return out
	}
	got := ids(taxOptimize(t, h, `{"country":"US","income":{"employment":90000},"candidates":["nl","GB"]}`))
	if !slices.Equal(got, []string{"GB", "NL"}) {
		t.Errorf("candidates nl, GB: %v", got)
	}
	got = ids(taxOptimize(t, h, `{"country":"US","income":{"employment":90000},"candidates":["nl","GB"],"domesticIncome":["employment"]}`))
	if !slices.Equal(got, []string{"GB", "NL", "nl-30-ruling"}) {
		t.Errorf("with a local job: %v", got)
	}
	got = ids(taxOptimize(t, h, `{"country":"US","income":{"dividends":90000},"candidates":["GB","us"]}`))
	if !slices.Equal(got, []string{"GB", "US", "gb-fig"}) {
		t.Errorf("dividends: %v", got)
	}
	got = ids(taxOptimize(t, h, `{"country":"US","income":{"dividends":90000},"candidates":["GB"],"programs":false}`))
	if !slices.Equal(got, []string{"GB"}) {
		t.Errorf("programs false: %v", got)
	}
	// The year asked for where the country has it.
	r := taxOptimize(t, h, `{"country":"US","income":{"pension":50000},"candidates":["FR","DE"],"year":2025}`)
	for _, x := range r.Data()["suggestions"].([]any) {
		s := x.(map[string]any)
		sys, _ := h.Taxes().ByCountry(s["country"].(string))
		want := sys.Latest()
		if slices.Contains(sys.Years(), 2025) {
			want = 2025
		}
		if s["year"] != float64(want) {
			t.Errorf("%v: year %v, want %d", s["country"], s["year"], want)
		}
	}
	if r.Data()["monthlyBudgetUSD"] != nil || r.Data()["suggestions"].([]any)[0].(map[string]any)["fiNumber"] != nil {
		t.Error("FI number without a budget")
	}
}

func TestTaxOptimizeValidation(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	cases := []struct {
		body, code, path string
	}{
		{`{"country":"ZZ","income":{"pension":1}}`, "VALIDATION_ERROR", "country"},
		{`{"country":"US","income":{"pension":1},"candidates":["GB","XX"]}`, "VALIDATION_ERROR", "candidates[1]"},
		{`{"country":"US","income":{"pension":1},"candidates":["GB","gb"]}`, "VALIDATION_ERROR", "candidates[1]"},
		{`{"country":"US","income":{"pension":1},"candidates":["GB","GBR"]}`, "VALIDATION_ERROR", "candidates[1]"},
		{`{"country":"US","income":{}}`, "VALIDATION_ERROR", "income"},
		{`{"country":"US","income":{"pension":1},"withdrawalRate":0}`, "VALIDATION_ERROR", "withdrawalRate"},
		{`{"country":"US","income":{"pension":1},"monthlyBudgetUSD":-1}`, "VALIDATION_ERROR", "monthlyBudgetUSD"},
		{`{"country":"US","income":{"pension":1},"year":3000}`, "VALIDATION_ERROR", "year"},
		{`{"income":{"pension":1}}`, "MISSING_FIELD", "country"},
		{`{"country":"US"}`, "MISSING_FIELD", "income"},
	}
	for _, c := range cases {
		r := taxOptimize(t, h, c.body)
		testserver.ExpectError(t, r, 400, c.code)
		if path, _ := detailPath(t, r); path != c.path {
			t.Errorf("%s: path %s, want %s", c.body, path, c.path)
		}
	}
}

// Every currency of the tax tables has an exchange rate, or the rate
// table says why it has none (optimize then skips the country, saying so).
func TestTaxCurrenciesHaveRates(t *testing.T) {
	h := testserver.New(t)
	gaps := map[string]bool{}
	for _, g := range h.FX().Meta().NotCovered {
		gaps[g.Code] = g.Reason != ""
	}
	for _, sys := range h.Taxes().Countries() {
		if !h.FX().Has(sys.Currency) && !gaps[sys.Currency] {
			t.Errorf("%s: no exchange rate for %s and no reason in the table", sys.Country, sys.Currency)
		}
	}
}

func FuzzTaxOptimize(f *testing.F) {
	f.Add([]byte(`{"country":"US","income":{"pension":30000,"dividends":20000},"monthlyBudgetUSD":4000}`))
	f.Add([]byte(`{"country":"gb","income":{"employment":1e12},"candidates":["nl","de"],"withdrawalRate":0.2,"monthlyBudgetUSD":1e7}`))
	f.Add([]byte(`{"country":"NL","income":{"capitalGains":1e-300},"domesticIncome":["capitalGains"],"programs":false,"year":1900}`))
	serve := testserver.FuzzRoute(f, "/api/v1/tax/optimize", "pro")
	f.Fuzz(func(t *testing.T, body []byte) {
		d := serve(t, body)
		if d == nil {
			return
		}
		prev := math.Inf(1)
		for _, x := range d["suggestions"].([]any) {
			net := x.(map[string]any)["afterTaxIncomeUSD"].(float64)
			if net > prev {
				t.Fatalf("not sorted: %v after %v", net, prev)
			}
			prev = net
		}
	})
}

// A candidate may name a region of its country: it is taxed there, and
// its localTax says so; a candidate taxed as its country's localTax says is
// written as before.
func TestTaxOptimizeRegionCandidates(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	in := tax.Income{Employment: 90000, Dividends: 5000}
	r := taxOptimize(t, h, `{"country":"US","income":`+incomeJSON(in)+`,"candidates":["gb-sct","GB","CA-ON","dk"],"programs":false}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	seen := map[string]bool{}
	for _, x := range r.Data()["suggestions"].([]any) {
		s := x.(map[string]any)
		sys, _ := h.Taxes().ByCountry(s["country"].(string))
		lt, _ := s["localTax"].(map[string]any)
		region, _ := lt["region"].(string)
		seen[sys.Country+"-"+region] = true
		f, _ := h.FX().Convert(1, "USD", sys.Currency)
		inC := scaledIncome(&in, f)
		want, err := tax.Due(sys, int(s["year"].(float64)), &inC, region, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := s["totalTax"].(float64); math.Abs(got-want) > 0.006 {
			t.Errorf("%s in %q: totalTax %v, want %v", sys.Country, region, got, want)
		}
		switch {
		case region == "SCT":
			if note := lt["note"].(string); !strings.Contains(note, "Scotland") {
				t.Errorf("GB-SCT note %q", note)
			}
		case region == sys.LocalTax.Region:
			checkLocalTax(t, sys, s["localTax"])
		default:
			t.Errorf("%s taxed in %q", sys.Country, region)
		}
	}
	if want := map[string]bool{"GB-SCT": true, "GB-": true, "CA-ON": true, "DK-KBH": true}; !maps.Equal(seen, want) {
		t.Errorf("suggestions %v, want %v", seen, want)
	}
	// Scotland's rates on this income are above the rest of the UK's.
	var sct, rest float64
	for _, x := range r.Data()["suggestions"].([]any) {
		s := x.(map[string]any)
		if s["country"] == "GB" {
			if lt := s["localTax"].(map[string]any); lt["region"] == "SCT" {
				sct = s["totalTax"].(float64)
			} else {
				rest = s["totalTax"].(float64)
			}
		}
	}
	if !(sct > rest) {
		t.Errorf("GB-SCT tax %v, GB %v", sct, rest)
	}

	cases := []struct {
		candidates, path, msg string
	}{
		{`["GB","DE-BY"]`, "candidates[1]", "DE has no regions"},
		{`["US-XX"]`, "candidates[0]", `unknown region "XX" for US`},
		{`["CH-LU"]`, "candidates[0]", `unknown region "LU" for CH`},
		{`["US-PR"]`, "candidates[0]", `unknown region "PR" for US`},
		{`["GB-XX"]`, "candidates[0]", `unknown region "XX" for GB; known: GB-ENG, GB-WLS, GB-NIR, GB-SCT`},
		{`["GB-"]`, "candidates[0]", `unknown region "" for GB`},
		{`["ZZ-AB"]`, "candidates[0]", `no tax parameters for "ZZ"`},
		{`["CA","ca-on"]`, "candidates[1]", "repeats candidates[0]"},
		{`["GB-SCT","GB","gb-Sct"]`, "candidates[2]", "repeats candidates[0]"},
		{`["GB","GB-SCOTLAND-AND-MORE"]`, "candidates[1]", ""},
	}
	for _, c := range cases {
		r := taxOptimize(t, h, `{"country":"US","income":{"pension":1},"candidates":`+c.candidates+`}`)
		testserver.ExpectError(t, r, 400, "VALIDATION_ERROR")
		if path, msg := detailPath(t, r); path != c.path || !strings.Contains(msg, c.msg) {
			t.Errorf("%s: %s %q, want %s %q", c.candidates, path, msg, c.path, c.msg)
		}
	}

	// The OpenAPI document says what a candidate may be.
	doc := h.Do("GET", "/api/v1/openapi.json", "")
	var api map[string]any
	if err := json.Unmarshal(doc.Raw, &api); err != nil {
		t.Fatal(err)
	}
	cand := testserver.DocNode(t, api, "paths", "/api/v1/tax/optimize", "post", "requestBody", "content", "application/json", "schema", "properties", "candidates").(map[string]any)
	desc, _ := cand["description"].(string)
	maxLen, _ := testserver.DocNode(t, api, "paths", "/api/v1/tax/optimize", "post", "requestBody", "content", "application/json", "schema", "properties", "candidates", "items", "maxLength").(float64)
	for _, s := range []string{"GB-SCT", "taxed in that region", "VALIDATION_ERROR naming candidates[i]"} {
		if !strings.Contains(desc, s) {
			t.Errorf("candidates description %q does not say %q", desc, s)
		}
	}
	if int(maxLen) < len("GB-SCT") {
		t.Errorf("candidates items maxLength %v", maxLen)
	}
}

func TestTaxOptimizeSkipsARegionTheYearDoesNotModel(t *testing.T) {
	h := testserver.New(t)
	r := taxOptimize(t, h, `{"country":"US","year":2024,"income":{"pension":40000},"candidates":["DE","US-CA"]}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	sug := r.Data()["suggestions"].([]any)
	if len(sug) != 1 || sug[0].(map[string]any)["country"] != "DE" {
		t.Fatalf("suggestions %v", sug)
	}
	skipped := r.Data()["skipped"].([]any)
	if len(skipped) != 1 || !strings.Contains(skipped[0].(map[string]any)["reason"].(string), "CA is not modelled for 2024") {
		t.Fatalf("skipped %v", skipped)
	}
}

type offered struct {
	p     program.Program
	offer tax.Offer
}

// programOffer is a program with its engine form, converted as the
// optimize route converts it.
func programOffer(t *testing.T, h *testserver.Harness, id string) offered {
	t.Helper()
	p, ok := h.Programs().ByID(id)
	if !ok {
		t.Fatalf("no program %q", id)
	}
	sys, _ := h.Taxes().ByCountry(p.Country)
	return offered{p, p.Offer(sys, h.FX())}
}
