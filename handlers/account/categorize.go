package account

import (
	"sync"

	"github.com/valyala/fasthttp"

	"fiplan/compute/category"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
)

type categorizeItem struct {
	Name   string `json:"name" schema:"required,minLen=1,maxLen=200"`
	ISIN   string `json:"isin" schema:"maxLen=12,format=isin"`
	Ticker string `json:"ticker" schema:"maxLen=20"`
}

type categorizeRequest struct {
	Items []categorizeItem `json:"items" schema:"required,minItems=1,maxItems=100"`
}

type categorized struct {
	Name       string  `json:"name" schema:"required"`
	Category   string  `json:"category" schema:"required,enum=@assetClass"`
	Confidence float64 `json:"confidence" schema:"required" doc:"0 to 1: a known ticker 0.95, a name keyword 0.7-0.9, an ISIN prefix alone 0.4-0.6, nothing 0.2."`
	Basis      string  `json:"basis" schema:"required,enum=ticker|keyword|isin|none" doc:"The evidence that decided."`
	Reason     string  `json:"reason" schema:"required"`
}

type categorizeData struct {
	Items []categorized `json:"items" schema:"required" doc:"One per requested item, in request order."`
}

var basisNames = [...]string{category.None: "none", category.Ticker: "ticker", category.Keyword: "keyword", category.ISIN: "isin"}

type categorizeWork struct {
	req  categorizeRequest
	text []byte
}

var categorizePool = sync.Pool{New: func() any { return new(categorizeWork) }}

// categorizeDoc describes POST /assets/categorize for the OpenAPI document.
func (s *Handlers) categorizeDoc(data rest.Schema) *rest.Doc {
	return &rest.Doc{
		Tag:     "assets",
		Status:  200,
		Summary: "Suggest a category for each holding",
		Desc:    "For up to 100 items `{name, isin?, ticker?}` answers a category, a confidence and the reason. Evidence, strongest first: a well-known ticker; a keyword in the name (\"bond\", \"treasury\", \"gold\", \"bitcoin\", \"REIT\", \"money market\", ...); the ISIN prefix (XS and EU for bonds; IE and LU, the UCITS fund domiciles; other countries for a listed share). Nothing is stored.",
		Body:    s.categorizeSchema,
		Data:    data}
}

// Categorize suggests a category for each item of the body.
func (s *Handlers) Categorize(c *rest.Ctx) {
	w := categorizePool.Get().(*categorizeWork)
	defer categorizePool.Put(w)
	if !rest.Decode(c, s.categorizeSchema, &w.req) {
		return
	}
	out := c.Begin()
	out.Begin()
	out.Key("items")
	out.BeginArray()
	for i := range w.req.Items {
		it := &w.req.Items[i]
		g := category.Of(it.Name, it.ISIN, it.Ticker)
		writeGuess(out, it.Name, g, &w.text)
	}
	out.EndArray()
	out.End()
	c.Send(fasthttp.StatusOK)
}

func writeGuess(out *jsonw.Writer, name string, g category.Guess, text *[]byte) {
	out.Begin()
	out.Key("name")
	out.String(name)
	out.Key("category")
	out.String(g.Category)
	out.Key("confidence")
	out.Fixed(g.Confidence, 2)
	out.Key("basis")
	out.String(basisNames[g.Rule])
	out.Key("reason")
	*text = category.AppendReason((*text)[:0], g)
	out.Bytes(*text)
	out.End()
}
