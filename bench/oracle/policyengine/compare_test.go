// Package policyengine holds fiplan's tax figures against PolicyEngine-US,
// an independent open-source engine: us_grid.json is PolicyEngine's answer
// for a grid of households (gen_us.py made it, and its header gives the
// pinned commits and the command), and us_differences.txt lists every
// figure of fiplan that differs from it by more than $1, each with the
// reason.
package policyengine

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"fiplan/compute/household"
	"fiplan/compute/tax"
	"fiplan/data/taxtable"
)

var update = flag.Bool("update", false, "rewrite us_differences.txt and uk_differences.txt from the grids, each difference with the reason reasonFor or ukReasonFor gives")

type peCase struct {
	Year           int     `json:"year"`
	State          string  `json:"state"`
	Filing         string  `json:"filing"`
	Age            int     `json:"age"`
	PartnerAge     int     `json:"partnerAge"`
	Wages          float64 `json:"wages"`
	PartnerWages   float64 `json:"partnerWages"`
	Pension        float64 `json:"pension"`
	IRA            float64 `json:"ira"`
	Dividends      float64 `json:"dividends"`
	Gains          float64 `json:"gains"`
	Interest       float64 `json:"interest"`
	SocialSecurity float64 `json:"socialSecurity"`
	PE             struct {
		Federal    float64 `json:"income_tax_before_refundable_credits"`
		TaxableSS  float64 `json:"taxable_social_security"`
		AMT        float64 `json:"alternative_minimum_tax"`
		AddlMed    float64 `json:"additional_medicare_tax"`
		NonRefund  float64 `json:"income_tax_capped_non_refundable_credits"`
		StateTax   float64 `json:"state_income_tax_before_refundable_credits"`
		StateAfter float64 `json:"state_income_tax"`
	} `json:"pe"`
}

func (c *peCase) id(i int) string {
	return fmt.Sprintf("%d-%s-%03d", c.Year, c.State, i)
}

// fiplan computes the household's federal income tax (with the NIIT) and
// its state's tax as fiplan's plans do: the taxed part of the benefit by
// the wrapper file's inclusion rule.
func fiplan(t *testing.T, s *tax.System, incl *household.Inclusion, c *peCase) (fed, state, taxableSS float64) {
	joint := c.Filing == "joint"
	other := c.Wages + c.PartnerWages + c.Pension + c.IRA + c.Dividends + c.Gains + c.Interest
	taxableSS = incl.Taxable(c.SocialSecurity, other, joint)
	in := tax.Income{Employment: c.Wages + c.PartnerWages, Pension: c.Pension + c.IRA, SocialSecurity: taxableSS,
		Interest: c.Interest, Dividends: c.Dividends, CapitalGains: c.Gains, Age: c.Age}
	if joint {
		in.Joint, in.PartnerAge, in.PartnerEmployment = true, c.PartnerAge, c.PartnerWages
	}
	var r tax.Result
	if err := tax.Calculate(s, c.Year, &in, c.State, &r); err != nil {
		t.Fatalf("%d %s: %v", c.Year, c.State, err)
	}
	return r.IncomeTax, r.RegionalTax, taxableSS
}

type diff struct {
	id, what     string
	fiplan, pe   float64
	reason       string
	statedFiplan float64
	statedPE     float64
}

func load(t *testing.T) (*tax.System, *household.Inclusion, []peCase) {
	tbl, err := taxtable.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	s, ok := tbl.ByCountry("US")
	if !ok {
		t.Fatal("no US tax file")
	}
	b := tbl.Wrappers("US").Benefit("us-social-security")
	if b == nil || b.Inclusion == nil {
		t.Fatal("no Social Security inclusion rule")
	}
	raw, err := os.ReadFile("us_grid.json")
	if err != nil {
		t.Fatal(err)
	}
	var grid struct {
		PolicyEngineUS string   `json:"policyengineUS"`
		Command        string   `json:"command"`
		Cases          []peCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &grid); err != nil {
		t.Fatal(err)
	}
	if len(grid.PolicyEngineUS) != 40 || grid.Command == "" {
		t.Fatalf("the fixture names no pinned commit and command")
	}
	return s, b.Inclusion, grid.Cases
}

// TestAgainstPolicyEngineUS computes every household of the grid and finds
// each figure (the taxed part of Social Security, the federal income tax
// with the NIIT, the state's income tax) within $1 of PolicyEngine's, or
// listed in us_differences.txt with the same two figures and a reason.
func TestAgainstPolicyEngineUS(t *testing.T) {
	s, incl, cases := load(t)
	if len(cases) < 500 {
		t.Fatalf("only %d households", len(cases))
	}
	listed := readListed(t, "us_differences.txt")
	var diffs []diff
	agree := map[string]int{}
	for i := range cases {
		c := &cases[i]
		fed, state, ss := fiplan(t, s, incl, c)
		for _, f := range []struct {
			what   string
			mine   float64
			theirs float64
		}{{"benefit", ss, c.PE.TaxableSS}, {"federal", fed, c.PE.Federal}, {"state", state, c.PE.StateTax}} {
			if math.Abs(f.mine-f.theirs) <= 1 {
				agree[f.what]++
				continue
			}
			diffs = append(diffs, diff{id: c.id(i), what: f.what, fiplan: f.mine, pe: f.theirs, reason: reasonFor(c.id(i), c, f.what, f.mine, f.theirs)})
		}
	}
	t.Logf("%d households: the taxed benefit within $1 in %d, federal tax in %d, state tax in %d; %d figures differ",
		len(cases), agree["benefit"], agree["federal"], agree["state"], len(diffs))
	if *update {
		writeListed(t, "us_differences.txt", "# Every figure of fiplan more than $1 from PolicyEngine-US on us_grid.json:\n"+
			"# case (year-state-index) figure fiplan policyengine reason; the reasons:\n", reasons, diffs)
		return
	}
	checkListed(t, "us_differences.txt", listed, reasons, diffs)
}

// checkListed finds every difference listed in the file with the same
// two figures and a known reason, and every listed one still a difference.
func checkListed(t *testing.T, file string, listed map[string]diff, reasons map[string]string, diffs []diff) {
	t.Helper()
	seen := map[string]bool{}
	for _, d := range diffs {
		key := d.id + " " + d.what
		l, ok := listed[key]
		seen[key] = true
		switch {
		case !ok:
			t.Errorf("%s: fiplan %.2f, PolicyEngine %.2f: a difference not listed in %s", key, d.fiplan, d.pe, file)
		case math.Abs(l.statedFiplan-d.fiplan) > 0.01 || math.Abs(l.statedPE-d.pe) > 0.01:
			t.Errorf("%s: fiplan %.2f, PolicyEngine %.2f; listed as %.2f and %.2f", key, d.fiplan, d.pe, l.statedFiplan, l.statedPE)
		default:
			for _, r := range strings.Split(l.reason, "+") {
				if reasons[r] == "" {
					t.Errorf("%s: listed with an unknown reason %q", key, r)
				}
			}
		}
	}
	for key := range listed {
		if !seen[key] {
			t.Errorf("%s: listed in %s but now within 1 of PolicyEngine: drop it", key, file)
		}
	}
}

func readListed(t *testing.T, file string) map[string]diff {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]diff{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var d diff
		if _, err := fmt.Sscanf(line, "%s %s %f %f %s", &d.id, &d.what, &d.statedFiplan, &d.statedPE, &d.reason); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		out[d.id+" "+d.what] = d
	}
	return out
}

func writeListed(t *testing.T, file, header string, reasons map[string]string, diffs []diff) {
	sort.Slice(diffs, func(i, j int) bool {
		if diffs[i].reason != diffs[j].reason {
			return diffs[i].reason < diffs[j].reason
		}
		return diffs[i].id+diffs[i].what < diffs[j].id+diffs[j].what
	})
	var b strings.Builder
	b.WriteString(header)
	keys := make([]string, 0, len(reasons))
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "#   %s: %s\n", k, reasons[k])
	}
	for _, d := range diffs {
		fmt.Fprintf(&b, "%s %s %.2f %.2f %s\n", d.id, d.what, d.fiplan, d.pe, d.reason)
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
