package policyengine

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"fiplan/compute/tax"
	"fiplan/data/taxtable"
)

// ukCase is one person of uk_grid.json (gen_uk.py), alone in a household,
// with PolicyEngine-UK's figures.
type ukCase struct {
	Year         int     `json:"year"`
	Region       string  `json:"region"`
	Age          int     `json:"age"`
	Employment   float64 `json:"employment"`
	Pension      float64 `json:"pension"`
	StatePension float64 `json:"statePension"`
	Interest     float64 `json:"interest"`
	Dividends    float64 `json:"dividends"`
	PE           struct {
		IncomeTax float64 `json:"income_tax"`
		NI        float64 `json:"national_insurance"`
		Class1    float64 `json:"ni_class_1_employee"`
		ANI       float64 `json:"adjusted_net_income"`
		PA        float64 `json:"personal_allowance"`
		SPA       float64 `json:"state_pension_age"`
	} `json:"pe"`
}

func (c *ukCase) id(i int) string {
	return fmt.Sprintf("%d-%s-%03d", c.Year, c.Region, i)
}

// ukFiplan computes the person's Income Tax and Class 1 contributions as
// fiplan's plans do: the State Pension and private pensions are one
// pension part, and the region is the country of the UK (SCT for the
// Scottish rates).
func ukFiplan(t *testing.T, s *tax.System, c *ukCase) (incomeTax, ni float64) {
	in := tax.Income{Employment: c.Employment, Pension: c.Pension + c.StatePension, Interest: c.Interest,
		Dividends: c.Dividends, Age: c.Age}
	var r tax.Result
	if err := tax.Calculate(s, c.Year, &in, c.Region, &r); err != nil {
		t.Fatalf("%d %s: %v", c.Year, c.Region, err)
	}
	return r.IncomeTax, r.SocialContributions
}

func loadUK(t *testing.T) (*tax.System, []ukCase) {
	tbl, err := taxtable.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	s, ok := tbl.ByCountry("GB")
	if !ok {
		t.Fatal("no GB tax file")
	}
	raw, err := os.ReadFile("uk_grid.json")
	if err != nil {
		t.Fatal(err)
	}
	var grid struct {
		PolicyEngineUK   string   `json:"policyengineUK"`
		PolicyEngineCore string   `json:"policyengineCore"`
		Command          string   `json:"command"`
		Cases            []ukCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &grid); err != nil {
		t.Fatal(err)
	}
	if len(grid.PolicyEngineUK) != 40 || len(grid.PolicyEngineCore) != 40 || grid.Command == "" {
		t.Fatalf("the fixture names no pinned commits and command")
	}
	return s, grid.Cases
}

// TestAgainstPolicyEngineUK computes every person of the grid and finds
// the Income Tax and the employee's Class 1 National Insurance within £1
// of PolicyEngine-UK's, or listed in uk_differences.txt with the same two
// figures and a reason.
func TestAgainstPolicyEngineUK(t *testing.T) {
	s, cases := loadUK(t)
	if len(cases) < 200 {
		t.Fatalf("only %d people", len(cases))
	}
	// the grid covers what it claims: both years, each country of the UK,
	// people over State Pension age with earnings, and the taper
	cover := map[string]int{}
	listed := readListed(t, "uk_differences.txt")
	var diffs []diff
	agree := map[string]int{}
	for i := range cases {
		c := &cases[i]
		cover[fmt.Sprint(c.Year)]++
		cover[c.Region]++
		if c.Age >= 68 && c.Employment > 0 {
			cover["earning over State Pension age"]++
		}
		if c.PE.ANI > 100000 && c.PE.ANI < 125140 {
			cover["taper"]++
		}
		// the national_insurance PolicyEngine reports is the Class 1
		// employee's here: the grid has no self-employment
		if math.Abs(c.PE.NI-c.PE.Class1) > 0.005 {
			t.Errorf("%s: National Insurance %.2f is not the Class 1 %.2f", c.id(i), c.PE.NI, c.PE.Class1)
		}
		it, ni := ukFiplan(t, s, c)
		for _, f := range []struct {
			what   string
			mine   float64
			theirs float64
		}{{"income-tax", it, c.PE.IncomeTax}, {"ni-class1", ni, c.PE.Class1}} {
			if math.Abs(f.mine-f.theirs) <= 1 {
				agree[f.what]++
				continue
			}
			diffs = append(diffs, diff{id: c.id(i), what: f.what, fiplan: f.mine, pe: f.theirs, reason: ukReasonFor(c, f.what, f.mine, f.theirs)})
		}
	}
	for _, k := range []string{"2025", "2026", "ENG", "WLS", "NIR", "SCT", "earning over State Pension age", "taper"} {
		if cover[k] < 10 {
			t.Errorf("the grid has %d people for %q", cover[k], k)
		}
	}
	t.Logf("%d people: Income Tax within £1 in %d, Class 1 NI in %d; %d figures differ",
		len(cases), agree["income-tax"], agree["ni-class1"], len(diffs))
	if *update {
		writeListed(t, "uk_differences.txt", "# Every figure of fiplan more than £1 from PolicyEngine-UK on uk_grid.json:\n"+
			"# case (year-region-index) figure fiplan policyengine reason; the reasons:\n", ukReasons, diffs)
		return
	}
	checkListed(t, "uk_differences.txt", listed, ukReasons, diffs)
}
