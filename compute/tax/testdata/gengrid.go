//go:build ignore

// gengrid writes the tax of every country's every published year on a
// grid of returns: each region the year models and none, single and (where
// the year has one) joint returns, ages 40 and 70, and 28 incomes (four
// mixes at seven levels from 10,000 to 10,000,000 in the country's
// currency). grid_test.go recomputes it and finds only the changes it
// lists, so a change to the data's form (or to the engine) that moves a
// published year's figure is seen. It uses only the engine's API of
// commit b67a1f6, on which the committed fixture was made:
//
//	git archive b67a1f6 | tar -x -C /tmp/base
//	cp compute/tax/testdata/gengrid.go /tmp/base/compute/tax/testdata/
//	(cd /tmp/base && go run ./compute/tax/testdata/gengrid.go) > compute/tax/testdata/grid_b67a1f6.txt
package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"fiplan/compute/tax"
)

// Levels and Mixes make the grid's incomes: each mix's shares of a level.
var (
	Levels = []float64{10_000, 25_000, 60_000, 120_000, 250_000, 1_000_000, 10_000_000}
	Mixes  = []tax.Income{
		{Employment: 1},
		{Pension: 1},
		{Employment: 0.5, Interest: 0.1, Dividends: 0.15, CapitalGains: 0.25},
		{SelfEmployment: 0.7, Pension: 0.3},
	}
)

func main() {
	names, err := filepath.Glob("embed/tax/countries/*.json")
	if err != nil || len(names) == 0 {
		fmt.Fprintln(os.Stderr, "no country files: run from the module's root")
		os.Exit(1)
	}
	sort.Strings(names)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintln(w, "# country year region filing age: total/income tax for each income (mix by level); made by compute/tax/testdata/gengrid.go")
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			panic(err)
		}
		s, err := tax.Parse(b)
		if err != nil {
			panic(err)
		}
		regions := []string{""}
		for _, r := range s.Regions {
			regions = append(regions, r.Code)
		}
		for _, year := range s.Years() {
			for _, region := range regions {
				if !s.Covers(year, region) {
					continue
				}
				for _, joint := range []bool{false, true} {
					if joint && !s.HasJointIn(year, region) {
						continue
					}
					for _, age := range []int{40, 70} {
						line(w, s, year, region, joint, age)
					}
				}
			}
		}
	}
}

func line(w *bufio.Writer, s *tax.System, year int, region string, joint bool, age int) {
	filing := "single"
	if joint {
		filing = "joint"
	}
	r := region
	if r == "" {
		r = "-"
	}
	var out strings.Builder
	fmt.Fprintf(&out, "%s %d %s %s %d:", s.Country, year, r, filing, age)
	var res tax.Result
	for _, mix := range Mixes {
		for _, level := range Levels {
			in := tax.Income{Employment: mix.Employment * level, SelfEmployment: mix.SelfEmployment * level, Pension: mix.Pension * level,
				Interest: mix.Interest * level, Dividends: mix.Dividends * level, CapitalGains: mix.CapitalGains * level, Age: age}
			if joint {
				in.Joint, in.PartnerAge = true, age
				in.PartnerEmployment = 0.4 * in.Employment
			}
			if err := tax.Calculate(s, year, &in, region, &res); err != nil {
				fmt.Fprintf(&out, " error")
				continue
			}
			fmt.Fprintf(&out, " %.2f/%.2f", res.TotalTax, res.IncomeTax)
		}
	}
	fmt.Fprintln(w, out.String())
}
