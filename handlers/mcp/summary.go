package mcp

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"fiplan/compute/plan"
)

// summary is a tool's one-paragraph account of its structured answer, in
// words an assistant can quote.
type summary func(out []byte) (string, error)

// num formats an amount with thousands separators and at most two decimals.
func num(v float64) string {
	neg := v < 0
	if neg {
		v = -v
	}
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	return b.String()
}

func pct(v float64) string { return strconv.FormatFloat(v*100, 'f', 1, 64) + "%" }

// planSummary is fi_calculate's summary, from the calculator's typed
// Result. Amounts are rounded as the answer writes them (cents, rates to
// four places) before they are formatted.
func planSummary(r *plan.Result) string {
	base := &r.Plans[0]
	d := &base.Summary
	var b strings.Builder
	if r.Taxed {
		// FI is reached against the after-tax FI number: the portfolio
		// whose withdrawals leave the spending after tax.
		fmt.Fprintf(&b, "FI number %s after tax (%s before tax; today's money); savings rate %s. ",
			num(round(d.FINumber, 100)), num(round(base.FINumber, 100)), pct(round(d.SavingsRate, 1e4)))
	} else {
		fmt.Fprintf(&b, "FI number %s (today's money); savings rate %s. ", num(round(base.FINumber, 100)), pct(round(d.SavingsRate, 1e4)))
	}
	switch {
	case d.YearsToFI < 0:
		b.WriteString("FI is not reached within the horizon.")
	case d.YearsToFI == 0:
		b.WriteString("Already financially independent.")
	case d.FIAge >= 0 && d.FIYear >= 0:
		fmt.Fprintf(&b, "FI in %d years, at age %d (%d).", d.YearsToFI, d.FIAge, d.FIYear)
	}
	if age, ok := r.DepletionAge(); ok && d.RunsOut {
		fmt.Fprintf(&b, " The money runs out at age %d.", age)
	}
	if x := r.Explain(); x != "" {
		b.WriteString(" " + x)
	}
	for _, s := range r.Plans[1:] {
		if s.Summary.YearsToFI < 0 {
			fmt.Fprintf(&b, " Scenario %q: FI not reached.", s.Name)
		} else if s.Summary.FIAge >= 0 {
			fmt.Fprintf(&b, " Scenario %q: FI in %d years, at age %d.", s.Name, s.Summary.YearsToFI, s.Summary.FIAge)
		}
	}
	return b.String()
}

// round rounds v half away from zero to 1/scale, as the answer does.
func round(v, scale float64) float64 { return math.Round(v*scale) / scale }

func healthSummary(out []byte) (string, error) {
	var d struct {
		Score      int `json:"score"`
		Components []struct {
			Name  string `json:"name"`
			Score int    `json:"score"`
			Max   int    `json:"max"`
		} `json:"components"`
		Recommendations []struct {
			Title  string `json:"title"`
			Impact int    `json:"impact"`
		} `json:"recommendations"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Portfolio health %d/1000:", d.Score)
	for i, c := range d.Components {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s %d/%d", c.Name, c.Score, c.Max)
	}
	b.WriteByte('.')
	if len(d.Recommendations) > 0 {
		r := d.Recommendations[0]
		fmt.Fprintf(&b, " First recommendation: %s (about %d points).", r.Title, r.Impact)
	}
	return b.String(), nil
}

// list reads a list tool's answer: the items and the total.
func list[T any](out []byte) (items []T, total int, err error) {
	var d struct {
		Items []T `json:"items"`
		Meta  struct {
			Total int `json:"total"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		return nil, 0, err
	}
	return d.Items, d.Meta.Total, nil
}

// firstFew joins the first five names.
func firstFew(names []string) string {
	if len(names) > 5 {
		names = append(names[:5:5], "...")
	}
	return strings.Join(names, "; ")
}

func citiesSummary(out []byte) (string, error) {
	items, total, err := list[struct {
		Name    string  `json:"name"`
		Country string  `json:"country"`
		Cost    float64 `json:"monthlyCostUSD"`
	}](out)
	if err != nil {
		return "", err
	}
	names := make([]string, len(items))
	for i, c := range items {
		names[i] = fmt.Sprintf("%s (%s) USD %s a month", c.Name, c.Country, num(c.Cost))
	}
	return fmt.Sprintf("%d cities match; %d here: %s.", total, len(items), firstFew(names)), nil
}

func compareSummary(out []byte) (string, error) {
	var d struct {
		Cities []struct {
			City struct {
				Name    string `json:"name"`
				Country string `json:"country"`
			} `json:"city"`
			FINumber float64 `json:"fiNumberUSD"`
			Summary  string  `json:"summary"`
		} `json:"cities"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		return "", err
	}
	parts := make([]string, len(d.Cities))
	for i, c := range d.Cities {
		parts[i] = fmt.Sprintf("%s (%s): FI number USD %s; %s", c.City.Name, c.City.Country, num(c.FINumber), c.Summary)
	}
	return strings.Join(parts, "\n"), nil
}

func recommendSummary(out []byte) (string, error) {
	items, total, err := list[struct {
		Name    string   `json:"name"`
		Score   int      `json:"score"`
		Reasons []string `json:"reasons"`
	}](out)
	if err != nil {
		return "", err
	}
	names := make([]string, len(items))
	for i, c := range items {
		names[i] = fmt.Sprintf("%s (score %d)", c.Name, c.Score)
	}
	s := fmt.Sprintf("%d cities fit; best first: %s.", total, firstFew(names))
	if len(items) > 0 && len(items[0].Reasons) > 0 {
		s += " Why " + items[0].Name + ": " + strings.Join(items[0].Reasons, "; ") + "."
	}
	return s, nil
}

func taxSummary(out []byte) (string, error) {
	var d struct {
		Country   string   `json:"country"`
		Year      int      `json:"year"`
		Currency  string   `json:"currency"`
		Income    float64  `json:"incomeTax"`
		Social    float64  `json:"socialContributions"`
		Capital   float64  `json:"capitalTax"`
		Regional  *float64 `json:"regionalTax"`
		Total     float64  `json:"totalTax"`
		Effective float64  `json:"effectiveRate"`
		Marginal  float64  `json:"marginalRate"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		return "", err
	}
	s := fmt.Sprintf("%s %d: total tax %s %s (income tax %s, social contributions %s, capital tax %s",
		d.Country, d.Year, d.Currency, num(d.Total), num(d.Income), num(d.Social), num(d.Capital))
	if d.Regional != nil {
		s += ", regional tax " + num(*d.Regional)
	}
	return s + fmt.Sprintf("); effective rate %s, marginal rate %s.", pct(d.Effective), pct(d.Marginal)), nil
}

func programsSummary(out []byte) (string, error) {
	items, total, err := list[struct {
		ID      string `json:"id"`
		Name    string `json:"name"`
		Country string `json:"country"`
		Status  string `json:"status"`
	}](out)
	if err != nil {
		return "", err
	}
	names := make([]string, len(items))
	for i, p := range items {
		names[i] = fmt.Sprintf("%s (%s, %s, id %s)", p.Name, p.Country, p.Status, p.ID)
	}
	return fmt.Sprintf("%d programs match; %d here: %s.", total, len(items), firstFew(names)), nil
}

func optimizeSummary(out []byte) (string, error) {
	var d struct {
		Suggestions []map[string]any `json:"suggestions"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		return "", err
	}
	if len(d.Suggestions) == 0 {
		return "No candidate country.", nil
	}
	parts := make([]string, 0, 3)
	for i, s := range d.Suggestions {
		if i == 3 {
			break
		}
		label := fmt.Sprint(s["country"])
		if p, ok := s["program"].(string); ok && p != "" {
			label += " with " + p
		}
		if v, ok := s["afterTaxUSD"].(float64); ok {
			label += ": after tax USD " + num(v)
		}
		parts = append(parts, fmt.Sprintf("%d. %s", i+1, label))
	}
	return fmt.Sprintf("%d options ranked by after-tax income; best: %s.", len(d.Suggestions), strings.Join(parts, "; ")), nil
}

func fiScoreSummary(out []byte) (string, error) {
	var d struct {
		Score    int      `json:"score"`
		Progress *float64 `json:"progress"`
		Missing  []struct {
			Field string `json:"field"`
		} `json:"missing"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		return "", err
	}
	s := fmt.Sprintf("FI score %d/1000.", d.Score)
	if d.Progress != nil {
		s += " Net worth is " + pct(*d.Progress) + " of the FI number."
	}
	if len(d.Missing) > 0 {
		fields := make([]string, len(d.Missing))
		for i, m := range d.Missing {
			fields[i] = m.Field
		}
		s += " Missing for a fuller score: " + strings.Join(fields, ", ") + "."
	}
	return s, nil
}

type assetBrief struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Value    float64 `json:"value"`
	Currency string  `json:"currency"`
	Category string  `json:"category"`
}

func (a assetBrief) String() string {
	return fmt.Sprintf("%s: %s %s, %s (id %s)", a.Name, a.Currency, num(a.Value), a.Category, a.ID)
}

func assetsSummary(out []byte) (string, error) {
	items, total, err := list[assetBrief](out)
	if err != nil {
		return "", err
	}
	names := make([]string, len(items))
	for i, a := range items {
		names[i] = a.String()
	}
	if total == 0 {
		return "No assets stored.", nil
	}
	return fmt.Sprintf("%d assets; %d here: %s.", total, len(items), firstFew(names)), nil
}

func assetSummary(out []byte) (string, error) {
	var a assetBrief
	if err := json.Unmarshal(out, &a); err != nil {
		return "", err
	}
	return "Saved " + a.String() + ".", nil
}

func deletedSummary(out []byte) (string, error) {
	var d struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		return "", err
	}
	return "Deleted " + d.ID + ".", nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
