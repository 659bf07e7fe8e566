package tax

import (
	"slices"
	"strconv"

	"fiplan/compute/household"
	"fiplan/compute/tax"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
)

func writeStrings(w *jsonw.Writer, key string, list []string) {
	w.Key(key)
	w.BeginArray()
	for _, s := range list {
		w.String(s)
	}
	w.EndArray()
}

func writeCountry(w *jsonw.Writer, sys *tax.System, programs []string, rules *household.Rules) {
	w.Begin()
	w.Key("code")
	w.String(sys.Country)
	w.Key("name")
	w.String(sys.Name)
	w.Key("currency")
	w.String(sys.Currency)
	w.Key("years")
	w.BeginArray()
	for _, y := range sys.Years() {
		w.Int(int64(y))
	}
	w.EndArray()
	w.Key("latestYear")
	w.Int(int64(sys.Latest()))
	writeYears(w, "jointYears", sys, func(y int) bool { return sys.HasJoint(y) })
	w.Key("regions")
	w.BeginArray()
	for _, r := range sys.Regions {
		w.Begin()
		w.Key("code")
		w.String(r.Code)
		w.Key("name")
		w.String(r.Name)
		writeYears(w, "years", sys, func(y int) bool { return sys.Covers(y, r.Code) })
		writeYears(w, "jointYears", sys, func(y int) bool { return sys.HasJointIn(y, r.Code) })
		w.End()
	}
	w.EndArray()
	writeLocalTax(w, sys)
	w.Key("modelled")
	w.Begin()
	notes := slices.Clone(sys.Notes)
	for _, y := range sys.Years() {
		yr, _ := sys.Year(y)
		for _, n := range yr.Notes {
			notes = append(notes, strconv.Itoa(y)+": "+n)
		}
	}
	writeStrings(w, "notes", notes)
	w.Key("rules")
	w.BeginArray()
	latest, _ := sys.Year(sys.Latest())
	for i := range latest.Rules {
		r := &latest.Rules[i]
		w.Begin()
		w.Key("id")
		w.String(r.ID)
		w.Key("label")
		w.String(r.Label)
		w.Key("category")
		w.String(r.Category.String())
		w.Key("filing")
		w.String(r.When.Filing.String())
		writeStrings(w, "regions", r.Regions)
		writeStrings(w, "exceptRegions", r.ExceptRegions)
		w.End()
	}
	w.EndArray()
	w.End()
	writeStrings(w, "notModelled", sys.NotModelled)
	writeStrings(w, "programs", programs)
	writeWrappers(w, rules)
	w.End()
}

// writeWrappers writes the country's wrappers: what a household plan's
// accounts may be, with their sources.
func writeWrappers(w *jsonw.Writer, rules *household.Rules) {
	w.Key("wrappers")
	w.BeginArray()
	if rules != nil {
		for i := range rules.Wrappers {
			x := &rules.Wrappers[i]
			w.Begin()
			w.Key("id")
			w.String(x.ID)
			w.Key("name")
			w.String(x.Name)
			w.Key("kind")
			w.String(x.Kind.String())
			w.Key("accessAge")
			if len(x.Access.ByBirth) > 0 || x.Access.Age == 0 {
				w.Null()
			} else {
				w.Float(x.Access.Age)
			}
			w.Key("notes")
			w.String(x.Notes)
			writeCitations(w, "sources", rules.Documents, x.Sources)
			w.End()
		}
	}
	w.EndArray()
}

// writeYears writes the system's years for which ok holds, as key.
func writeYears(w *jsonw.Writer, key string, sys *tax.System, ok func(int) bool) {
	w.Key(key)
	w.BeginArray()
	for _, y := range sys.Years() {
		if ok(y) {
			w.Int(int64(y))
		}
	}
	w.EndArray()
}

// writeLocalTax writes how comparisons treat the country's sub-national
// income tax: localTax, null when the country file says nothing.
func writeLocalTax(w *jsonw.Writer, sys *tax.System) {
	w.Key("localTax")
	lt := &sys.LocalTax
	if lt.Note == "" {
		w.Null()
		return
	}
	w.Begin()
	w.Key("region")
	w.StringOrNull(lt.Region)
	w.Key("note")
	w.String(lt.Note)
	w.End()
}

// GET /tax/countries

func (t *Handlers) Countries(c *rest.Ctx) {
	c.SendStatic(t.countries)
}
