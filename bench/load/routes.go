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
	weight int // share in the mixed workload
}

// identicalCalc is a 60-year timeline (35 to the default 95) with two
// scenarios: the calculator's common case.
const identicalCalc = `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,` +
	`"scenarios":[{"name":"frugal","annualExpenses":35000},{"name":"bear","expectedReturn":0.05}]}`

func routes() []route {
	return []route{
		{name: "calculator", method: "POST", path: "/api/v1/calculator", body: identicalCalc, weight: 20},
		{name: "calculator-varied", method: "POST", path: "/api/v1/calculator", varied: true, weight: 25},
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
	}
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
	return t.pre + strconv.FormatUint(uint64(t.savings)+n, 10) + "." + twoDigits(thread) + t.post
}

func twoDigits(i int) string {
	i %= 100
	return string([]byte{byte('0' + i/10), byte('0' + i%10)})
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
