package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"fiplan/compute/fi"
	"fiplan/compute/health"
	"fiplan/compute/tax"
	"fiplan/data/history"
)

// resource is one document an assistant may read: a method statement or a
// dataset's sources and as-of date.
type resource struct {
	uri, name, title, desc, mime string
	text                         string
}

// resources are built once from the methods and the datasets' metadata.
func (h *Handler) resources() ([]resource, error) {
	d := h.cfg.Datasets
	list := []resource{
		{uri: "fiplan://method/health-score", name: "health-score-method", title: "Portfolio health score: method",
			desc: "How portfolio_health and the portfolio part of my_fi_score score a portfolio, component by component.",
			mime: "text/plain", text: health.Method},
		{uri: "fiplan://method/calculator", name: "calculator-method", title: "FI calculator: order of operations",
			desc: "The order of operations and conventions of fi_calculate: one row per year, returns, inflation, withdrawal strategies, Monte Carlo and backtests.",
			mime: "text/plain", text: fi.Method},
	}
	add := func(uri, name, title, desc string, v any) error {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return fmt.Errorf("cannot encode resource %s: %w", uri, err)
		}
		list = append(list, resource{uri: uri, name: name, title: title, desc: desc, mime: "application/json", text: string(b)})
		return nil
	}
	if d.Cities != nil {
		m := d.Cities.Meta()
		if err := add("fiplan://dataset/cities", "cities-dataset", "Cities: sources and as-of date",
			"The city cost-of-living dataset behind search_cities, compare_cities and recommend_cities.",
			map[string]any{"dataset": m.Dataset, "version": m.Version, "asOf": m.AsOf, "cities": d.Cities.Len(), "currency": m.Currency,
				"currencyNote": m.CurrencyNote, "method": m.Method, "indicators": m.Indicators, "sources": m.Sources,
				"pricesKept": m.PricesKept}); err != nil {
			return nil, err
		}
	}
	if d.FX != nil {
		m := d.FX.Meta()
		if err := add("fiplan://dataset/fx", "fx-dataset", "Exchange rates: sources and as-of date",
			"The reference exchange rates tax_optimize and the asset totals convert with.",
			map[string]any{"dataset": m.Dataset, "asOf": m.AsOf, "base": m.Base, "method": m.Method, "sources": m.Sources, "notCovered": m.NotCovered}); err != nil {
			return nil, err
		}
	}
	if d.Programs != nil {
		m := d.Programs.Meta()
		if err := add("fiplan://dataset/tax-programs", "tax-programs-dataset", "Special tax programs: as-of date and method",
			"The special regimes of tax_programs and tax_optimize; each program lists its own sources.",
			map[string]any{"asOf": m.AsOf, "taxYear": m.TaxYear, "method": m.Method, "programs": d.Programs.Len()}); err != nil {
			return nil, err
		}
	}
	if d.Taxes != nil {
		type country struct {
			Country     string         `json:"country"`
			Name        string         `json:"name"`
			Years       []int          `json:"years"`
			Documents   []tax.Document `json:"documents"`
			NotModelled []string       `json:"notModelled"`
		}
		var cs []country
		for _, s := range d.Taxes.Countries() {
			docs := make([]tax.Document, 0, len(s.Documents))
			for _, k := range slices.Sorted(maps.Keys(s.Documents)) {
				docs = append(docs, s.Documents[k])
			}
			cs = append(cs, country{Country: s.Country, Name: s.Name, Years: s.Years(), Documents: docs, NotModelled: s.NotModelled})
		}
		if err := add("fiplan://dataset/tax-countries", "tax-countries-dataset", "Tax systems: official sources and their dates",
			"Each country's tax parameters behind tax_calculate and tax_optimize: the official documents they come from, each with its date.",
			cs); err != nil {
			return nil, err
		}
	}
	if d.History.Len() > 0 {
		list = append(list, resource{uri: "fiplan://dataset/history", name: "history-dataset", title: "Return history: sources and as-of date",
			desc: "The US return and inflation series behind fi_calculate's historical backtest.", mime: "text/plain",
			text: fmt.Sprintf("United States, %d-%d, one row per calendar year.\n\n%s", d.History.First(), d.History.Last(), history.Provenance())})
	}
	r, err := homeResource()
	if err != nil {
		return nil, err
	}
	list = append(list, r)
	return list, nil
}

// homeResource lists the home-country record's series with their sources,
// licences and as-of dates.
func homeResource() (resource, error) {
	home, err := history.EmbeddedHome()
	if err != nil {
		return resource{}, err
	}
	type series struct {
		ID      string         `json:"id"`
		Unit    string         `json:"unit"`
		Source  history.Source `json:"source"`
		Licence string         `json:"licence"`
		AsOf    string         `json:"asOf"`
		Tag     string         `json:"tag"`
		First   string         `json:"first"`
		Values  int            `json:"values"`
	}
	out := make([]series, len(home.Series))
	for i, x := range home.Series {
		out[i] = series{ID: x.ID, Unit: x.Unit, Source: x.Source, Licence: x.Licence, AsOf: x.AsOf, Tag: x.Tag, First: x.First, Values: len(x.Values)}
	}
	b, err := json.MarshalIndent(map[string]any{"dataset": home.Meta.Dataset, "method": home.Meta.Method, "series": out}, "", "  ")
	if err != nil {
		return resource{}, fmt.Errorf("cannot encode resource home-history: %w", err)
	}
	return resource{uri: "fiplan://dataset/home-history", name: "home-history-dataset", title: "Home-country prices and exchange rates: sources, licences and as-of dates",
		desc: "The consumer prices and exchange rates fi_calculate's backtest is restated in the plan's currency with (historical.currency).",
		mime: "application/json", text: string(b)}, nil
}

func (h *Handler) addResources() error {
	list, err := h.resources()
	if err != nil {
		return err
	}
	for _, r := range list {
		r := r
		h.server.AddResource(&sdk.Resource{URI: r.uri, Name: r.name, Title: r.title, Description: r.desc, MIMEType: r.mime, Size: int64(len(r.text))},
			func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: r.uri, MIMEType: r.mime, Text: r.text}}}, nil
			})
	}
	return nil
}

// prompt is a conversation starter with its arguments.
type prompt struct {
	name, title, desc string
	args              []*sdk.PromptArgument
	text              func(args map[string]string) string
}

var prompts = []prompt{
	{
		name: "plan_financial_independence", title: "Plan my financial independence",
		desc: "Walk through a plan to financial independence with the calculator, the portfolio score and the stored assets.",
		args: []*sdk.PromptArgument{
			{Name: "age", Description: "Your age today."},
			{Name: "income", Description: "Yearly take-home income."},
			{Name: "expenses", Description: "Yearly spending."},
			{Name: "savings", Description: "Invested savings today."},
		},
		text: func(a map[string]string) string {
			var b strings.Builder
			b.WriteString("Help me plan my financial independence.\n")
			for _, k := range []string{"age", "income", "expenses", "savings"} {
				if v := a[k]; v != "" {
					fmt.Fprintf(&b, "My %s: %s.\n", k, v)
				}
			}
			b.WriteString("Ask me for anything missing among age, take-home income, spending and savings. " +
				"Then call fi_calculate (add scenarios for spending 10% less and for retiring five years later), " +
				"call my_fi_score and list_my_assets to see what I have stored, and portfolio_health on those holdings. " +
				"Explain the FI number, when I reach it and at what age, the milestones, and the three changes that would help most. " +
				"Read fiplan://method/calculator before explaining how the projection works.")
			return b.String()
		},
	},
	{
		name: "compare_retirement_places", title: "Compare places to retire",
		desc: "Find and compare places to retire on a budget, with their living costs and taxes.",
		args: []*sdk.PromptArgument{
			{Name: "budget", Description: "Monthly budget in US dollars, or leave empty and give a portfolio."},
			{Name: "portfolio", Description: "Portfolio in US dollars to live from."},
			{Name: "preferences", Description: "Climate, safety, region or visa wishes, in your words."},
		},
		text: func(a map[string]string) string {
			var b strings.Builder
			b.WriteString("Help me compare places to retire.\n")
			for _, k := range []string{"budget", "portfolio", "preferences"} {
				if v := a[k]; v != "" {
					fmt.Fprintf(&b, "My %s: %s.\n", k, v)
				}
			}
			b.WriteString("Call recommend_cities with my budget (or portfolioUSD and a 0.04 withdrawalRate) and my preferences, " +
				"then compare_cities on the best three with the first as reference, and tax_programs for special regimes in their countries; " +
				"if I have the pro tier, tax_optimize ranks the countries by income after tax. " +
				"Say for each place what it costs a month, how far money goes compared with the others, and the FI number it needs. " +
				"Read fiplan://dataset/cities for the sources and date of the cost figures.")
			return b.String()
		},
	},
}

func (h *Handler) addPrompts() {
	for _, p := range prompts {
		p := p
		h.server.AddPrompt(&sdk.Prompt{Name: p.name, Title: p.title, Description: p.desc, Arguments: p.args},
			func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
				var args map[string]string
				if req.Params != nil {
					args = req.Params.Arguments
				}
				return &sdk.GetPromptResult{Description: p.desc, Messages: []*sdk.PromptMessage{
					{Role: "user", Content: &sdk.TextContent{Text: p.text(args)}},
				}}, nil
			})
	}
}
