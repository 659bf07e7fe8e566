package tax

import (
	"strings"

	"github.com/valyala/fasthttp"

	"fiplan/data/program"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/errcode"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
)

// GET /tax/programs, GET /tax/programs/{id}

func (t *Handlers) Programs(c *rest.Ctx) {
	args := c.RC.QueryArgs()
	if args.Len() == 0 {
		c.SendStatic(t.programsPage)
		return
	}
	country := args.Peek("country")
	if country != nil && !isCountryCode(country) {
		c.Fail("country", "must be an ISO 3166-1 alpha-2 code such as PT")
		return
	}
	var status program.Status
	if v := args.Peek("status"); v != nil {
		for _, st := range program.Statuses {
			if string(st) == string(v) {
				status = st
			}
		}
		if status == "" {
			c.Fail("status", "must be one of: open, closed, changed")
			return
		}
	}
	limit, offset, ok := c.Page()
	if !ok {
		return
	}
	w := c.Begin()
	w.BeginArray()
	total := 0
	for _, tp := range t.programs {
		if country != nil && !strings.EqualFold(tp.p.Country, bytesconv.String(country)) || status != "" && tp.p.Status != status {
			continue
		}
		if total >= offset && total < offset+limit {
			w.Raw(tp.json)
		}
		total++
	}
	w.EndArray()
	c.SendList(fasthttp.StatusOK, total, limit, offset)
}

func isCountryCode(b []byte) bool {
	if len(b) != 2 {
		return false
	}
	for _, ch := range b {
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z') {
			return false
		}
	}
	return true
}

// ProgramID is the grammar of a program id, the {id} of /tax/programs/{id}.
var ProgramID = rest.NewPathParam("id", program.IDPattern, program.MaxIDLen, "must be a program id: the country code and a slug, such as pt-nhr")

func (t *Handlers) Program(c *rest.Ctx) {
	tp := t.byID[bytesconv.String(c.Param("id"))]
	if tp == nil {
		c.Error(errcode.NotFound, "no such program")
		return
	}
	c.SendStatic(tp.page)
}

// programView is a program as the API shows it.
type programView struct {
	*program.Program
	Calculable     bool   `json:"calculable"`
	CalculableNote string `json:"calculableNote,omitempty"`
}

// firstProgramsPage is the response to GET /tax/programs without a query:
// the first DefaultLimit programs.
func (t *Handlers) firstProgramsPage() []byte {
	var w jsonw.Writer
	w.B = append(w.B, `{"success":true,"data":`...)
	w.BeginArray()
	for _, tp := range t.programs[:min(rest.DefaultLimit, len(t.programs))] {
		w.Raw(tp.json)
	}
	w.EndArray()
	return append(rest.AppendMeta(w.B, len(t.programs), rest.DefaultLimit, 0), '}')
}
