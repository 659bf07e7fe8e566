package calculator

import (
	"testing"

	json "github.com/goccy/go-json"

	"fiplan/compute/fi"
	"fiplan/handlers/jsonw"
)

// benchRows is a 60-year plan's rows, four times: the rows of a plan with
// three scenarios.
func benchRows() []fi.Year {
	in := fi.Defaults()
	in.CurrentAge, in.AnnualIncome, in.AnnualExpenses, in.StartYear = 35, 90000, 45000, 2026
	_, rows := fi.Project(&in, nil)
	return append(append(append(rows, rows...), rows...), rows...)
}

// The projection rows as the answer writes them, by the generated
// appendRow.
func BenchmarkProjectionRowsAppended(b *testing.B) {
	rows := benchRows()
	var w jsonw.Writer
	b.ReportAllocs()
	for b.Loop() {
		w.Reset()
		writeProjections(&w, rows, nil, 1)
	}
	b.SetBytes(int64(len(w.B)))
}

// The same rows encoded from their declaration with goccy/go-json: the
// reason the rows are written by append-style code.
func BenchmarkProjectionRowsDeclared(b *testing.B) {
	rows := benchRows()
	docs := make([]calcYearDoc, len(rows))
	var w jsonw.Writer
	enc := json.NewEncoder(&docs2{&w})
	b.ReportAllocs()
	for b.Loop() {
		w.Reset()
		for i := range rows {
			y := &rows[i]
			docs[i] = calcYearDoc{Year: y.Year, Age: y.Age, StartBalance: cents(y.StartBalance), Contributions: cents(y.Contributions),
				Growth: cents(y.Growth), Withdrawals: cents(y.Withdrawals), Events: cents(y.Events), Pension: cents(y.Pension),
				EndBalance: cents(y.EndBalance), RealEndBalance: cents(y.RealEndBalance), FIProgress: rate(y.FIProgress), Retired: y.Retired}
		}
		if err := enc.Encode(docs); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(w.B)))
}

type docs2 struct{ w *jsonw.Writer }

func (d *docs2) Write(p []byte) (int, error) { d.w.B = append(d.w.B, p...); return len(p), nil }
