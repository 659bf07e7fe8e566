package health

// The published scoring rules, as plain text for API documentation (for
// example the OpenAPI description of POST /api/v1/portfolio-health). The
// reasoning and sources are in METHODOLOGY.md next to this file. The numbers
// here are the package constants; a test keeps them in step.

// MethodDiversification describes the diversification component.
const MethodDiversification = "Diversification (250 points). " +
	"Asset-class spread, 70: each asset class counts min(1, share/5%); the sum from 1 to 3 earns 0 to 70. " +
	"Holding concentration, 70: the Herfindahl-Hirschman index (HHI, sum of squared percentage shares, 0-10000) " +
	"with funds looked through (a holding with an expense ratio or a name that says fund, index or ETF, an equity holding in the global region, or cash, counts as 20 equal positions; " +
	"commodity or other funds as 5; crypto as 1); HHI <= 1000 earns 70, 1800 earns 35, >= 5000 earns 0, linear between. " +
	"Largest single exposure, 60: the largest holding share after the same look-through; <= 10% earns 60, >= 50% earns 0. " +
	"Regional spread of equities, 50: effective number of regions (1 / sum of squared regional shares of the equity " +
	"holdings that state a region; a global fund splits 65% North America, 15% Europe, 10% Asia-Pacific, 10% emerging markets); " +
	"1 earns 0, >= 2 earns 50; no equities earns 50; equities without any region earn 25."

// MethodCostEfficiency describes the cost-efficiency component.
const MethodCostEfficiency = "Cost efficiency (250 points). " +
	"The value-weighted expense ratio ER (a stated expenseRatio; cash without one counts 0; any other holding without one " +
	"is assumed at 0.50%; stated ratios above 10% count as 10%) is compared with a 0.10% index fund over the horizon H " +
	"(years to targetRetirementAge, kept within 10..40; 20 when age or targetRetirementAge is unknown) at a 7% yearly return: " +
	"excess drag D = 1 - ((1.07 - ER) / (1.07 - 0.001))^H, the share of end wealth lost to costs above 0.10%. " +
	"Points = 250 x (1 - D / 20%), within 0..250: ER <= 0.10% earns 250, losing 20% or more of end wealth earns 0."

// MethodRiskAlignment describes the risk-alignment component.
const MethodRiskAlignment = "Risk alignment (250 points). " +
	"Growth share G = equity + crypto + half of real estate, commodity and other. Guide T: with age and targetRetirementAge, " +
	"a target-date glide path on the years Y to the target (90% for Y >= 25, falling linearly to 50% at Y = 0 and 30% " +
	"seven years after); with age only, 110 minus age (kept within 30%..90%); riskTolerance low/high moves either by -10/+10 points; " +
	"with riskTolerance only, 40% / 60% / 80% for low / medium / high; T is kept within 10%..100%. " +
	"Growth fit, 170: |G - T| <= 10 points earns 170, >= 40 points earns 0, linear between; without any of age or " +
	"riskTolerance it earns 85. Speculative share, 80: crypto at or below a cap (2% low, 5% medium or unknown, 10% high) " +
	"earns 80, falling linearly to 0 at 25 points above the cap."

// MethodResilience describes the resilience component.
const MethodResilience = "Resilience (250 points). " +
	"Emergency fund, 120: months of annualExpenses covered by emergencyFund (or, when absent, by the cash holdings); " +
	"120 x months / 6, capped at 120. FI progress, 70: portfolio value grown at 4% a year after inflation until targetRetirementAge " +
	"(coast FI; not grown when age or targetRetirementAge is unknown) / (25 x annualExpenses); 70 x progress, capped at 70. " +
	"Without annualExpenses both earn half (60 and 35). Liquidity, 60: the share in holdings that cannot be sold quickly " +
	"(real estate or other without an expense ratio); <= 30% earns 60, >= 80% earns 0, linear between."

// Method describes the whole score.
const Method = "Portfolio health score, 0..1000: four components of 250 points each, each the rounded sum of its parts; " +
	"the score is the sum of the four. Holdings worth less than 0.01 (or not a number) are ignored; amounts above 1e15 are capped. " +
	"Inputs that are absent are assumed as stated and listed as missing. Recommendations are ranked by the points " +
	"they are estimated to recover (priority 1 first); there are none only at 1000. " +
	MethodDiversification + " " + MethodCostEfficiency + " " + MethodRiskAlignment + " " + MethodResilience

// ComponentMethods holds the rule of each component, indexed by ComponentID.
var ComponentMethods = [NumComponents]string{MethodDiversification, MethodCostEfficiency, MethodRiskAlignment, MethodResilience}
