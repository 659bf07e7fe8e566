package main

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// route is one request shape the harness drives. A varied route sends a
// different calculator body on every request (see variedBody); the others
// send the same bytes every time.
type route struct {
	name   string
	method string
	path   string
	auth   string // "", "jwt" or "key": which credential goes in Authorization
	body   string
	varied bool
	// tmpl, when set, makes every request's body its own: tmpl.body(n,
	// thread), a different figure each time, so that no cache answers.
	tmpl   *variedTemplate
	weight int // share in the mixed workload; 0: not in it
}

// identicalCalc is a 60-year timeline (35 to the default 95) with two
// scenarios: the calculator's common case.
const identicalCalc = `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,` +
	`"scenarios":[{"name":"frugal","annualExpenses":35000},{"name":"bear","expectedReturn":0.05}]}`

// householdCalc is a couple in the US, 45 and 43, with six accounts (his
// 401(k), Roth IRA and HSA, a taxable account, cash, her 401(k)), both
// claiming Social Security, converting to the Roth up to the 12% band,
// taxed under the US rules: 52 years of household rows (until she is 95).
// Its cash balance is where each request writes its own figure.
var householdCalc = variedTemplate{pre: `{"currentAge":45,"annualIncome":120000,"annualExpenses":65000,"targetRetirementAge":57,` +
	`"partner":{"age":43,"annualIncome":70000,"retirementAge":57},` +
	`"accounts":[{"id":"k401","type":"us-401k","balance":350000,"annualContribution":23000,"employerContribution":6000},` +
	`{"id":"roth","type":"us-roth-ira","balance":60000,"annualContribution":7000},` +
	`{"id":"hsa","type":"us-hsa","balance":25000,"annualContribution":4000},` +
	`{"id":"brokerage","type":"taxable","balance":180000,"costBasis":120000,"annualContribution":12000},` +
	`{"id":"cash","type":"cash","balance":`, savings: 30000, post: `},` +
	`{"id":"her-401k","type":"us-401k","owner":"partner","balance":140000,"annualContribution":15000,"employerContribution":3500}],` +
	`"pensions":[{"kind":"us-social-security","fromAge":67,"amount":32000},{"kind":"us-social-security","owner":"partner","fromAge":67,"amount":21000}],` +
	`"conversions":{"upToRate":0.12},"tax":{"country":"US"}}`}

func routes() []route {
	return []route{
		{name: "calculator", method: "POST", path: "/api/v1/calculator", body: identicalCalc, weight: 20},
		{name: "calculator-varied", method: "POST", path: "/api/v1/calculator", varied: true, weight: 25},
		{name: "household", method: "POST", path: "/api/v1/calculator", tmpl: &householdCalc, body: householdCalc.body(0, 0)},
		{name: "portfolio-health", method: "POST", path: "/api/v1/portfolio-health", weight: 15,
			body: `{"holdings":[{"name":"World index","value":200000,"assetClass":"equity","expenseRatio":0.002,"region":"global"},` +
				`{"name":"Bond fund","value":60000,"assetClass":"bond","expenseRatio":0.001},` +
				`{"name":"Savings","value":15000,"assetClass":"cash"}],"age":40,"annualExpenses":36000}`},
		{name: "cities", method: "GET", path: "/api/v1/geo/cities", weight: 15},
		{name: "profile-jwt", method: "GET", path: "/api/v1/user/profile", auth: "jwt", weight: 10},
		{name: "profile-apikey", method: "GET", path: "/api/v1/user/profile", auth: "key", weight: 5},
		{name: "tax-calculate", method: "POST", path: "/api/v1/tax/calculate", auth: "jwt", weight: 10,
			body: `{"country":"GB","region":"SCT","income":{"employment":50000,"dividends":3000}}`},
		{name: "status", method: "GET", path: "/api/v1/status", weight: 5},
		// Not in the mix (its figures stay comparable with earlier runs'):
		// the store's read path, the one route whose speed is the store's.
		{name: "assets", method: "GET", path: "/api/v1/assets", auth: "jwt"},
	}
}

// mixRoutes are the routes of the mixed workload: those with a weight.
// The household route is measured alone: a few household plans in the mix
// would set its pace, and keep the mix's figures from comparing with
// earlier runs'.
func mixRoutes() []route {
	var out []route
	for _, r := range routes() {
		if r.weight > 0 {
			out = append(out, r)
		}
	}
	return out
}

// variedTemplate is one realistic calculator request split around its
// currentSavings figure, so that a load generator can make every body
// unique by writing a different figure there: body = pre + figure + post.
type variedTemplate struct {
	pre     string
	savings int
	post    string
}

// body writes the template with savings raised by n dollars and tagged
// with the load thread's number in the cents, so that no two requests of a
// run carry the same body.
func (t variedTemplate) body(n uint64, thread int) string {
	return string(t.appendBody(nil, n, thread))
}

// appendBody appends body(n, thread) to dst: the generator's way, into a
// buffer of its own, without allocating.
func (t variedTemplate) appendBody(dst []byte, n uint64, thread int) []byte {
	dst = append(dst, t.pre...)
	dst = strconv.AppendUint(dst, uint64(t.savings)+n, 10)
	i := thread % 100
	dst = append(dst, '.', byte('0'+i/10), byte('0'+i%10))
	return append(dst, t.post...)
}

// variedTemplates draws count calculator requests from the ranges of real
// planners' inputs: ages 22 to 60, take-home income 25k to 250k, spending
// 35% to 95% of it, savings up to 1.5M, sometimes other rates, strategies,
// pensions, one-off events, up to three scenarios and a historical
// backtest. The same seed draws the same requests.
func variedTemplates(seed uint64, count int) []variedTemplate {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := make([]variedTemplate, count)
	strategies := [...]string{"constant", "fixed-percentage", "guyton-klinger", "vpw"}
	for i := range out {
		var b strings.Builder
		age := 22 + rng.IntN(39)
		income := 25000 + rng.IntN(225001)
		expenses := income * (35 + rng.IntN(61)) / 100
		b.WriteString(`{"currentAge":` + strconv.Itoa(age))
		b.WriteString(`,"annualIncome":` + strconv.Itoa(income))
		b.WriteString(`,"annualExpenses":` + strconv.Itoa(expenses))
		b.WriteString(`,"currentSavings":`)
		pre := b.String()
		b.Reset()
		savings := rng.IntN(1_500_000)
		if rng.IntN(2) == 0 {
			b.WriteString(`,"expectedReturn":` + rate(rng, 0.04, 0.09))
			b.WriteString(`,"inflationRate":` + rate(rng, 0.015, 0.04))
		}
		if rng.IntN(3) == 0 {
			b.WriteString(`,"withdrawalRate":` + rate(rng, 0.03, 0.045))
		}
		life := 85 + rng.IntN(16)
		b.WriteString(`,"lifeExpectancy":` + strconv.Itoa(life))
		if rng.IntN(4) == 0 {
			b.WriteString(`,"withdrawalStrategy":"` + strategies[rng.IntN(len(strategies))] + `"`)
		}
		if rng.IntN(3) == 0 {
			from := max(age, 60+rng.IntN(8))
			b.WriteString(`,"pensions":[{"fromAge":` + strconv.Itoa(from) + `,"amount":` + strconv.Itoa(6000+rng.IntN(20000)) + `}]`)
		}
		if rng.IntN(4) == 0 {
			at := age + 1 + rng.IntN(life-age-1)
			amount := 5000 + rng.IntN(200000)
			if rng.IntN(2) == 0 {
				amount = -amount
			}
			b.WriteString(`,"events":[{"age":` + strconv.Itoa(at) + `,"amount":` + strconv.Itoa(amount) + `,"label":"event"}]`)
		}
		if n := rng.IntN(4); n > 0 {
			b.WriteString(`,"scenarios":[`)
			for s := range n {
				if s > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`{"name":"scenario ` + strconv.Itoa(s+1) + `"`)
				switch rng.IntN(3) {
				case 0:
					b.WriteString(`,"annualExpenses":` + strconv.Itoa(expenses*(70+rng.IntN(40))/100))
				case 1:
					b.WriteString(`,"expectedReturn":` + rate(rng, 0.03, 0.08))
				default:
					b.WriteString(`,"withdrawalStrategy":"` + strategies[rng.IntN(len(strategies))] + `"`)
				}
				b.WriteByte('}')
			}
			b.WriteByte(']')
		}
		if rng.IntN(4) == 0 {
			b.WriteString(`,"historical":{"years":` + strconv.Itoa(25+rng.IntN(16)) + `}`)
		}
		b.WriteByte('}')
		out[i] = variedTemplate{pre: pre, savings: savings, post: b.String()}
	}
	return out
}

// rate draws a rate between lo and hi to a hundredth of a percent.
func rate(rng *rand.Rand, lo, hi float64) string {
	return strconv.FormatFloat(lo+float64(rng.IntN(int((hi-lo)*1e4)+1))/1e4, 'f', -1, 64)
}
