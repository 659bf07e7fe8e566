package program_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"fiplan/data/program"
	fiembed "fiplan/embed"
)

func loadEmbedded(t *testing.T) *program.Table {
	t.Helper()
	tab, err := program.Load(fiembed.Programs)
	if err != nil {
		t.Fatalf("Load(embedded): %v", err)
	}
	return tab
}

func TestEmbeddedDatasetShape(t *testing.T) {
	tab := loadEmbedded(t)
	all := tab.All()
	if len(all) < 25 {
		t.Fatalf("got %d programs, want at least 25", len(all))
	}
	if tab.Len() != len(all) {
		t.Errorf("Len() = %d, All() has %d", tab.Len(), len(all))
	}
	if !slices.IsSortedFunc(all, func(a, b program.Program) int { return strings.Compare(a.ID, b.ID) }) {
		t.Error("All() is not sorted by id")
	}
	seen := map[string]bool{}
	for _, p := range all {
		if seen[p.ID] {
			t.Errorf("duplicate id %q", p.ID)
		}
		seen[p.ID] = true
		if want := strings.ToLower(p.Country) + "-"; !strings.HasPrefix(p.ID, want) {
			t.Errorf("%s: id does not start with %q", p.ID, want)
		}
		if !slices.Contains(program.Statuses, p.Status) {
			t.Errorf("%s: invalid status %q", p.ID, p.Status)
		}
		if d, err := time.Parse(time.DateOnly, p.StatusAsOf); err != nil || p.StatusAsOf > tab.Meta().AsOf || d.Year() < 2026 {
			t.Errorf("%s: statusAsOf %q is not a 2026 date on or before the dataset's asOf %s", p.ID, p.StatusAsOf, tab.Meta().AsOf)
		}
		if !slices.Contains(program.Kinds, p.Kind) {
			t.Errorf("%s: invalid kind %q", p.ID, p.Kind)
		}
		if p.Rate != nil && (*p.Rate <= 0 || *p.Rate >= 1) {
			t.Errorf("%s: rate %v not in (0,1)", p.ID, *p.Rate)
		}
		if len(p.Sources) == 0 {
			t.Errorf("%s: no sources", p.ID)
		}
		if len(p.Eligibility) == 0 {
			t.Errorf("%s: no eligibility lines", p.ID)
		}
		if p.Changes == nil || p.Rules == nil {
			t.Errorf("%s: changes and rules must be non-nil so they encode as []", p.ID)
		}
		// A closed program must say when and why it closed.
		if p.Status == program.StatusClosed && len(p.Changes) == 0 {
			t.Errorf("%s: closed without a dated change", p.ID)
		}
		// A flat pensioner regime's headline rate must be what its rule applies.
		if p.Kind == program.KindPensionerFlat {
			if p.Rate == nil || !slices.ContainsFunc(p.Rules, func(r program.Rule) bool {
				return r.Type == program.RuleFlat && r.Rate != nil && *r.Rate == *p.Rate
			}) {
				t.Errorf("%s: pensioner-flat program without a flat rule at its rate", p.ID)
			}
		}
		// A lump-sum amount must agree with the lumpSum rule.
		if p.LumpSum != nil && !slices.ContainsFunc(p.Rules, func(r program.Rule) bool {
			return r.Type == program.RuleLumpSum && *r.Amount == p.LumpSum.Amount && r.Currency == p.LumpSum.Currency
		}) {
			t.Errorf("%s: lumpSum %v without a matching lumpSum rule", p.ID, *p.LumpSum)
		}
	}
	// Both open and closed regimes are represented.
	for _, s := range program.Statuses {
		if !slices.ContainsFunc(all, func(p program.Program) bool { return p.Status == s }) {
			t.Errorf("no program with status %q", s)
		}
	}
}

func TestEmbeddedMeta(t *testing.T) {
	m := loadEmbedded(t).Meta()
	if m.AsOf == "" || m.Method == "" {
		t.Fatalf("meta incomplete: %+v", m)
	}
	if m.TaxYear != 2025 {
		t.Errorf("taxYear = %d, want 2025", m.TaxYear)
	}
}

func ptr[T any](v T) *T { return &v }

// TestSpotChecks compares key parameters with the authority that sets them.
func TestSpotChecks(t *testing.T) {
	tab := loadEmbedded(t)
	cases := []struct {
		id       string
		status   program.Status
		rate     *float64
		duration *int
		lumpSum  *program.Money
		why      string
	}{
		// Agenzia delle Entrate, art. 24-ter TUIR: 7% substitute tax; since
		// D.L. 34/2019 valid for the first year and the nine following.
		{"it-pensioner-7", program.StatusOpen, ptr(0.07), ptr(10), nil, "art. 24-ter TUIR"},
		// D.L. 113/2024: EUR 200,000 for residence transfers after 10 Aug 2024;
		// art. 24-bis TUIR: at most 15 years.
		{"it-lump-sum", program.StatusChanged, nil, ptr(15), &program.Money{Amount: 200000, Currency: "EUR"}, "art. 24-bis TUIR"},
		// AEAT, art. 93 LIRPF: 24% on work income up to EUR 600,000, year of
		// move plus five following years.
		{"es-beckham", program.StatusChanged, ptr(0.24), ptr(6), nil, "art. 93 LIRPF"},
		// Lei 82/2023 (OE 2024) repealed NHR for new entrants from 2024.
		{"pt-nhr", program.StatusClosed, nil, ptr(10), nil, "Lei 82/2023 art. 236"},
		// EBF art. 58.º-A: 20% special rate for ten consecutive years.
		{"pt-ifici", program.StatusOpen, ptr(0.20), ptr(10), nil, "EBF art. 58.º-A"},
		// Finance Act 2025: relief for the first four tax years of residence.
		{"gb-fig", program.StatusOpen, nil, ptr(4), nil, "Finance Act 2025 FIG regime"},
		// Finance Act 2025 abolished the remittance basis from 6 April 2025.
		{"gb-remittance", program.StatusClosed, nil, ptr(15), nil, "Finance Act 2025"},
		// AADE, art. 5B Law 4172/2013: 7% on foreign income for 15 years.
		{"gr-pensioner-7", program.StatusOpen, ptr(0.07), ptr(15), nil, "art. 5B ITC"},
		// AADE, art. 5A Law 4172/2013: EUR 100,000 a year, 15 years.
		{"gr-non-dom", program.StatusOpen, nil, ptr(15), &program.Money{Amount: 100000, Currency: "EUR"}, "art. 5A ITC"},
		// Malta Retirement Programme Rules (S.L. 123.134): 15% on remitted income.
		{"mt-retirement", program.StatusOpen, ptr(0.15), nil, nil, "S.L. 123.134"},
		// Skattestyrelsen: 27% plus AM contribution for up to 7 years.
		{"dk-researcher", program.StatusOpen, ptr(0.27), ptr(7), nil, "KSL §§ 48 E-F"},
		// Royal Decree 743: 17% for LTR highly skilled professionals.
		{"th-ltr", program.StatusOpen, ptr(0.17), ptr(10), nil, "Royal Decree 743"},
		// Laws 19.904 and 19.937: year of residence plus ten following years;
		// Ley 20.446 (budget 2025-2029) recast the regime from 2026.
		{"uy-tax-holiday", program.StatusChanged, nil, ptr(11), nil, "Ley 19.904; Ley 20.446"},
		// Revenue (Ireland), s. 825C TCA 1997: five consecutive years.
		{"ie-sarp", program.StatusChanged, nil, ptr(5), nil, "s. 825C TCA"},
		// Cyprus SDC Law: deemed domiciled after 17 of 20 years.
		{"cy-non-dom", program.StatusChanged, nil, ptr(17), nil, "Law 119(I)/2015"},
	}
	for _, c := range cases {
		p, ok := tab.ByID(c.id)
		if !ok {
			t.Errorf("%s missing (%s)", c.id, c.why)
			continue
		}
		if p.Status != c.status {
			t.Errorf("%s: status %q, want %q (%s)", c.id, p.Status, c.status, c.why)
		}
		if !equalPtr(p.Rate, c.rate) {
			t.Errorf("%s: rate %v, want %v (%s)", c.id, deref(p.Rate), deref(c.rate), c.why)
		}
		if !equalPtr(p.DurationYears, c.duration) {
			t.Errorf("%s: durationYears %v, want %v (%s)", c.id, deref(p.DurationYears), deref(c.duration), c.why)
		}
		if !equalPtr(p.LumpSum, c.lumpSum) {
			t.Errorf("%s: lumpSum %v, want %v (%s)", c.id, deref(p.LumpSum), deref(c.lumpSum), c.why)
		}
	}

	// Revenue (Ireland): 30% of income between EUR 100,000 and EUR 1,000,000.
	sarp, _ := tab.ByID("ie-sarp")
	if r := sarp.Rules; len(r) != 1 || *r[0].Fraction != 0.3 || *r[0].IncomeFloor != 100000 || *r[0].IncomeCap != 1000000 {
		t.Errorf("ie-sarp rule = %+v, want 30%% of EUR 100,000-1,000,000", r)
	}
	// D.Lgs. 209/2023 art. 5: 50% of income up to EUR 600,000.
	imp, _ := tab.ByID("it-impatriate")
	if r := imp.Rules; len(r) != 1 || *r[0].Fraction != 0.5 || *r[0].IncomeCap != 600000 {
		t.Errorf("it-impatriate rule = %+v, want 50%% up to EUR 600,000", r)
	}
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestByIDAndByCountry(t *testing.T) {
	tab := loadEmbedded(t)
	if _, ok := tab.ByID("xx-nothing"); ok {
		t.Error("ByID found a program that does not exist")
	}
	it := tab.ByCountry("it")
	if len(it) != 3 {
		t.Fatalf("ByCountry(it) = %d programs, want 3", len(it))
	}
	for _, p := range it {
		if p.Country != "IT" {
			t.Errorf("ByCountry(it) returned %s of %s", p.ID, p.Country)
		}
	}
	if !slices.Equal(ids(tab.ByCountry("IT")), ids(it)) {
		t.Error("ByCountry is case-sensitive")
	}
	if got := tab.ByCountry("AQ"); got == nil || len(got) != 0 {
		t.Errorf("ByCountry(AQ) = %#v, want empty non-nil slice", got)
	}
	// All returns the caller's copy.
	all := tab.All()
	all[0].ID = "mutated"
	if tab.All()[0].ID == "mutated" {
		t.Error("All() exposes the table's internal slice")
	}
}

func ids(ps []program.Program) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

// The API's program fields are always present in JSON, null where unset.
func TestProgramJSONFields(t *testing.T) {
	p, _ := loadEmbedded(t).ByID("gb-fig")
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "country", "name", "summary", "rate", "durationYears", "eligibility", "status", "sources", "kind", "lumpSum", "appliesTo", "changes", "rules", "statusAsOf"} {
		if _, ok := m[k]; !ok {
			t.Errorf("field %q missing from JSON", k)
		}
	}
	if string(m["rate"]) != "null" || string(m["lumpSum"]) != "null" {
		t.Errorf("rate/lumpSum = %s/%s, want null", m["rate"], m["lumpSum"])
	}
}

const validDoc = `{
  "meta": {"asOf": "2025-06-01", "taxYear": 2025, "method": "test"},
  "programs": [{
    "id": "it-pensioner-7", "country": "IT", "name": "n", "summary": "s",
    "kind": "pensioner-flat", "rate": 0.07, "lumpSum": null, "durationYears": 10,
    "eligibility": ["e"],
    "appliesTo": {"incomes": ["pension"], "scope": "foreign"},
    "status": "open", "statusAsOf": "2025-05-30", "changes": [{"date": "2019-06", "description": "d"}],
    "sources": [{"publisher": "p", "title": "t", "year": 2019}],
    "rules": [{"type": "flat", "rate": 0.07, "incomes": ["pension"], "scope": "foreign"}]
  }]
}`

func TestLoadValidMinimal(t *testing.T) {
	tab, err := program.Load([]byte(validDoc))
	if err != nil {
		t.Fatalf("Load(valid) = %v", err)
	}
	if tab.Len() != 1 {
		t.Fatalf("Len = %d", tab.Len())
	}
}

func TestLoadErrors(t *testing.T) {
	cases := []struct {
		name, old, new, want string
	}{
		{"malformed JSON", `"programs": [`, `"programs": [[`, "cannot parse programs"},
		{"unknown status", `"status": "open"`, `"status": "retired"`, `unknown status "retired"`},
		{"unknown kind", `"kind": "pensioner-flat"`, `"kind": "golden"`, `unknown kind "golden"`},
		{"unknown field", `"summary": "s",`, `"summary": "s", "sumary": "x",`, "unknown field"},
		{"id prefix", `"country": "IT"`, `"country": "GR"`, "does not start with"},
		{"bad country", `"country": "IT"`, `"country": "Italy"`, "ISO 3166-1"},
		{"rate is a percent", `"rate": 0.07, "lumpSum"`, `"rate": 7, "lumpSum"`, "not in (0,1)"},
		{"rate as string", `"rate": 0.07, "lumpSum"`, `"rate": "0.07", "lumpSum"`, "cannot parse programs"},
		{"no sources", `"sources": [{"publisher": "p", "title": "t", "year": 2019}]`, `"sources": []`, "no sources"},
		{"no eligibility", `"eligibility": ["e"]`, `"eligibility": []`, "no eligibility"},
		{"blank eligibility", `"eligibility": ["e"]`, `"eligibility": [" "]`, "eligibility[0] is empty"},
		{"bad change date", `"date": "2019-06"`, `"date": "June 2019"`, "changes[0]"},
		{"missing statusAsOf", `"statusAsOf": "2025-05-30", `, ``, `statusAsOf "" is not a YYYY-MM-DD date`},
		{"statusAsOf not a date", `"statusAsOf": "2025-05-30"`, `"statusAsOf": "2025-05"`, `statusAsOf "2025-05"`},
		{"statusAsOf after the dataset", `"statusAsOf": "2025-05-30"`, `"statusAsOf": "2025-06-02"`, "after the dataset's asOf 2025-06-01"},
		{"bad asOf", `"asOf": "2025-06-01"`, `"asOf": "mid 2025"`, "asOf"},
		{"missing meta", `"meta": {"asOf": "2025-06-01", "taxYear": 2025, "method": "test"},`, ``, "missing meta"},
		{"zero duration", `"durationYears": 10`, `"durationYears": 0`, "durationYears"},
		{"unknown income", `"appliesTo": {"incomes": ["pension"]`, `"appliesTo": {"incomes": ["salary"]`, `unknown income part "salary"`},
		{"rule without rate", `{"type": "flat", "rate": 0.07,`, `{"type": "flat",`, "rules[0]"},
		{"lumpSum rule without currency", `{"type": "flat", "rate": 0.07,`, `{"type": "lumpSum", "amount": 100,`, "currency"},
		{"trailing data", `}]
}`, `}]
} {}`, "trailing data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := strings.Replace(validDoc, c.old, c.new, 1)
			if doc == validDoc {
				t.Fatalf("mutation %q did not apply", c.old)
			}
			_, err := program.Load([]byte(doc))
			if err == nil {
				t.Fatal("Load accepted an invalid document")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "cannot parse programs") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

func TestLoadDuplicateID(t *testing.T) {
	i := strings.Index(validDoc, `{
    "id"`)
	j := strings.LastIndex(validDoc, `]
}`)
	entry := validDoc[i:j]
	doc := validDoc[:j] + "," + entry + validDoc[j:]
	_, err := program.Load([]byte(doc))
	if err == nil || !strings.Contains(err.Error(), `duplicate program id "it-pensioner-7"`) {
		t.Fatalf("Load(duplicate) = %v", err)
	}
}
