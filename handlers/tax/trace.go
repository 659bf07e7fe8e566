package tax

import (
	"fiplan/compute/tax"
	"fiplan/handlers/jsonw"
)

// WriteTrace writes r's trace as key "trace": every rule that fired (it
// charged something or took a step), in order, with its taxable base, its
// average rate on it, its amount, the sources of its figures and its
// steps (the breakdown lines it made). The household calculator writes a
// year's trace with it too.
func WriteTrace(w *jsonw.Writer, sys *tax.System, r *tax.Result) {
	w.Key("trace")
	w.BeginArray()
	for _, t := range r.RuleTotals() {
		if t.Amount == 0 && t.To == t.From {
			continue
		}
		w.Begin()
		w.Key("rule")
		w.String(t.Rule)
		w.Key("label")
		w.String(t.Label)
		w.Key("category")
		w.String(t.Category.String())
		w.Key("base")
		w.Fixed(t.Taxable, 2)
		w.Key("rate")
		rate := 0.0
		if t.Taxable > 0 {
			rate = t.Amount / t.Taxable
		}
		w.Fixed(rate, 6)
		w.Key("amount")
		w.Fixed(t.Amount, 2)
		writeCitations(w, "source", sys.Documents, t.Sources)
		w.Key("steps")
		w.BeginArray()
		for _, l := range r.Lines[min(t.From, r.NLines):min(t.To, r.NLines)] {
			w.Begin()
			w.Key("kind")
			w.String(l.Kind.String())
			writeLine(w, &l)
			if len(l.Sources) > 0 {
				writeCitations(w, "source", sys.Documents, l.Sources)
			}
			w.End()
		}
		w.EndArray()
		w.End()
	}
	w.EndArray()
}

// writeCitations writes sources as key: each document's publisher and
// title, address, section and the date of the version read, the document
// looked up in docs by its key.
func writeCitations(w *jsonw.Writer, key string, docs map[string]tax.Document, src []tax.Source) {
	w.Key(key)
	w.BeginArray()
	for _, s := range src {
		d := docs[s.Doc]
		w.Begin()
		w.Key("title")
		w.String(d.Publisher + ": " + d.Title)
		w.Key("url")
		w.String(d.URL)
		w.Key("section")
		w.String(s.Section)
		w.Key("asOf")
		w.String(d.AsOf)
		w.End()
	}
	w.EndArray()
}
