package calculator

import (
	"bytes"
	"strconv"
	"strings"

	"fiplan/compute/plan"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/jsonw"
)

// contentCSV is the media type of the projections as CSV.
const contentCSV = "text/csv; charset=utf-8"

const csvDesc = "With `Accept: text/csv` (ranked above application/json): the projections as CSV (RFC 4180, UTF-8, CRLF line ends) with a header row: " +
	csvHeader + ", and tax with tax (the year's total tax). " +
	csvHouseholdDesc +
	"The base plan's rows come first with an empty scenario, then each scenario's rows under its name, in request order; output and every select the rows as in JSON (output summary: the header alone). " +
	"monteCarlo, historical and goals are answered in JSON only: a CSV answer leaves them out. Errors are JSON envelopes. " +
	"A scenario name that starts with =, +, -, @, a tab or a carriage return is written with a leading single quote, so that a spreadsheet opens it as text, not as a formula."

// wantsCSV reports whether an Accept header ranks text/csv above
// application/json (a wildcard does not count for either).
func wantsCSV(accept []byte) bool {
	qCSV, qJSON := 0.0, 0.0
	for len(accept) > 0 {
		var part []byte
		if i := bytes.IndexByte(accept, ','); i >= 0 {
			part, accept = accept[:i], accept[i+1:]
		} else {
			part, accept = accept, nil
		}
		mt, params, _ := bytes.Cut(part, []byte{';'})
		mt = bytes.TrimSpace(mt)
		var q *float64
		switch {
		case bytes.EqualFold(mt, []byte("text/csv")):
			q = &qCSV
		case bytes.EqualFold(mt, []byte("application/json")):
			q = &qJSON
		default:
			continue
		}
		*q = quality(params)
	}
	return qCSV > 0 && qCSV > qJSON
}

// quality is the q parameter of a media range's parameters, 1 when absent
// or malformed.
func quality(params []byte) float64 {
	for len(params) > 0 {
		var p []byte
		if i := bytes.IndexByte(params, ';'); i >= 0 {
			p, params = params[:i], params[i+1:]
		} else {
			p, params = params, nil
		}
		name, val, ok := bytes.Cut(bytes.TrimSpace(p), []byte{'='})
		if !ok || !bytes.EqualFold(bytes.TrimSpace(name), []byte("q")) {
			continue
		}
		q, err := strconv.ParseFloat(bytesconv.String(bytes.TrimSpace(val)), 64)
		if err != nil || q < 0 || q > 1 {
			return 1
		}
		return q
	}
	return 1
}

// appendCSV appends every plan's selected rows as CSV.
func appendCSV(b []byte, r *plan.Result, step int) []byte {
	b = append(b, csvHeader...)
	if r.Taxed {
		b = append(b, ",tax"...)
	}
	var hc householdColumns
	if r.Household {
		hc.collect(r)
		b = hc.appendHeader(b, r.Taxed)
	}
	b = append(b, "\r\n"...)
	for k := range r.Plans {
		p := &r.Plans[k]
		rows := p.Rows
		if r.Household {
			hc.plan(p.Household)
		}
		for i := range rows {
			if !plan.KeepRow(i, len(rows), step) {
				continue
			}
			b = appendCSVField(b, p.Name)
			b = appendCSVRow(b, &rows[i])
			if r.Taxed {
				b = append(b, ',')
				b = jsonw.AppendFixed(b, p.RowTax[i], 2)
			}
			if r.Household {
				b = hc.appendRow(b, p.Household, i, r.Taxed)
			}
			b = append(b, "\r\n"...)
		}
	}
	return b
}

// appendCSVField appends the text cell s, quoted when it holds a comma, a
// quote or a line break (quotes doubled). A cell that a spreadsheet would
// read as a formula (it starts with =, +, -, @, a tab or a carriage return)
// gets a leading single quote, so that it opens as the text it is; only
// text cells go through here, numbers are written as numbers.
func appendCSVField(b []byte, s string) []byte {
	formula := s != "" && strings.IndexByte("=+-@\t\r", s[0]) >= 0
	if !strings.ContainsAny(s, ",\"\r\n") {
		if formula {
			b = append(b, '\'')
		}
		return append(b, s...)
	}
	b = append(b, '"')
	if formula {
		b = append(b, '\'')
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}
