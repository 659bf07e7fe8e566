package policyengine

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"fiplan/compute/household"
	"fiplan/data/taxtable"
)

// hhCase is one household of us_household_grid.json (gen_us_household.py
// made it): an ACA household under 65 with its benchmark premium, or a
// Medicare household whose income of two years earlier is given.
type hhCase struct {
	Kind           string  `json:"kind"`
	Year           int     `json:"year"`
	State          string  `json:"state"`
	Filing         string  `json:"filing"`
	Age            int     `json:"age"`
	PartnerAge     int     `json:"partnerAge"`
	IRA            float64 `json:"ira"`
	Interest       float64 `json:"interest"`
	Dividends      float64 `json:"dividends"`
	SocialSecurity float64 `json:"socialSecurity"`
	Benchmark      float64 `json:"benchmark"`
	MAGIPrior      float64 `json:"magiPriorYears"`
	PE             struct {
		PTC    float64 `json:"aca_ptc"`
		MAGI   float64 `json:"aca_magi"`
		PartB  float64 `json:"irmaa_part_b"`
		PartD  float64 `json:"irmaa_part_d"`
		People int     `json:"aca_ptc_eligible_people"`
	} `json:"pe"`
}

func (c *hhCase) id(i int) string { return fmt.Sprintf("%d-%s-%s-%03d", c.Year, c.Kind, c.Filing, i) }

// hhReasons explains each kind of difference us_household_differences.txt
// lists.
var hhReasons = map[string]string{
	"pe-400-exact": "household income exactly 400% of the poverty line: IRC 36B(c)(1)(A) allows the credit up to and including 400% " +
		"(Form 8962 Worksheet 2 enters 401 only when the income is more than 400%); PolicyEngine's eligibility scale " +
		"excludes 400% itself and pays nothing",
	"pe-medicaid": "a state that expanded Medicaid (Pennsylvania): an adult whose income is under 138% of the poverty line " +
		"is eligible for Medicaid, which bars the credit (IRC 36B(c)(2)(B)); PolicyEngine counts no member eligible " +
		"for the credit, fiplan's plan assumes marketplace coverage with the credit (where Medicaid takes over is not " +
		"its to model)",
	"open": "not yet explained: a difference to study (it fails no build, and each is counted in the test's log)",
}

// medicaidExpanded are the grid's states that extended Medicaid to adults
// up to 138% of the poverty line.
var medicaidExpanded = map[string]bool{"PA": true}

func hhReasonFor(c *hhCase, what string, h *household.Health, magi float64) string {
	n := 1
	if c.Filing == "joint" {
		n = 2
	}
	if what == "ptc" && c.PE.PTC == 0 && magi == h.Credit.ToShare*h.FPL.At(n) {
		return "pe-400-exact"
	}
	// 138% of the coverage year's guidelines, which Medicaid reads, is at
	// most 1.42 times the year before's the credit reads
	if what == "ptc" && c.PE.PTC == 0 && c.PE.People == 0 && medicaidExpanded[c.State] && magi < 1.42*h.FPL.At(n) {
		return "pe-medicaid"
	}
	return "open"
}

func loadHousehold(t *testing.T) (*household.Health, []hhCase) {
	tbl, err := taxtable.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	h := tbl.Wrappers("US").Health
	if h == nil || h.Credit == nil || h.FPL == nil || h.IRMAA == nil {
		t.Fatal("no US health rules")
	}
	raw, err := os.ReadFile("us_household_grid.json")
	if err != nil {
		t.Fatal(err)
	}
	var grid struct {
		PolicyEngineUS string   `json:"policyengineUS"`
		Command        string   `json:"command"`
		Cases          []hhCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &grid); err != nil {
		t.Fatal(err)
	}
	if len(grid.PolicyEngineUS) != 40 || grid.Command == "" {
		t.Fatalf("the fixture names no pinned commit and command")
	}
	return h, grid.Cases
}

// TestHouseholdAgainstPolicyEngineUS holds fiplan's premium tax credit
// (its income, the whole Social Security benefit counted, and the credit
// on a given benchmark premium) and its Medicare surcharges (Part B and
// Part D on the income of two years earlier, each member over 65) against
// PolicyEngine-US: each figure within $1, or listed in
// us_household_differences.txt with the same two figures and a reason.
func TestHouseholdAgainstPolicyEngineUS(t *testing.T) {
	h, cases := loadHousehold(t)
	kinds := map[string]int{}
	for i := range cases {
		kinds[cases[i].Kind]++
	}
	if kinds["aca"] < 50 || kinds["irmaa"] < 50 {
		t.Fatalf("households: %v, want 50 of each kind", kinds)
	}
	if h.IRMAA.Year != 2026 || h.FPL.CoverageYear != 2026 {
		t.Fatalf("the rules are of %d (IRMAA) and %d (credit), the grid of 2026", h.IRMAA.Year, h.FPL.CoverageYear)
	}
	listed := readListed(t, "us_household_differences.txt")
	var diffs []diff
	agree := map[string]int{}
	for i := range cases {
		c := &cases[i]
		joint := c.Filing == "joint"
		n := 1
		if joint {
			n = 2
		}
		type fig struct {
			what         string
			mine, theirs float64
		}
		var figs []fig
		switch c.Kind {
		case "aca":
			// the engine's income for the credit: every income of the
			// year with the whole benefit
			magi := c.IRA + c.Interest + c.Dividends + c.SocialSecurity
			credit := min(c.Benchmark, h.Credit.Credit(c.Benchmark, magi, h.FPL.At(n)))
			figs = []fig{{"magi", magi, c.PE.MAGI}, {"ptc", credit, c.PE.PTC}}
		case "irmaa":
			x := float64(n) * h.IRMAA.Yearly(c.MAGIPrior, joint, 1)
			figs = []fig{{"irmaa", x, c.PE.PartB + c.PE.PartD}}
		default:
			t.Fatalf("case %d: kind %q", i, c.Kind)
		}
		for _, f := range figs {
			if math.Abs(f.mine-f.theirs) <= 1 {
				agree[f.what]++
				continue
			}
			magi := c.IRA + c.Interest + c.Dividends + c.SocialSecurity
			diffs = append(diffs, diff{id: c.id(i), what: f.what, fiplan: f.mine, pe: f.theirs, reason: hhReasonFor(c, f.what, h, magi)})
		}
	}
	t.Logf("%d households (%v): the credit's income within $1 in %d, the credit in %d, the surcharge in %d; %d figures differ",
		len(cases), kinds, agree["magi"], agree["ptc"], agree["irmaa"], len(diffs))
	if *update {
		writeListed(t, "us_household_differences.txt", "# Every figure of fiplan more than $1 from PolicyEngine-US on us_household_grid.json:\n"+
			"# case (year-kind-filing-index) figure fiplan policyengine reason; the reasons:\n", hhReasons, diffs)
		return
	}
	checkListed(t, "us_household_differences.txt", listed, hhReasons, diffs)
}
