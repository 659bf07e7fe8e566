package household

import "fiplan/compute/fi"

// AccountYear is one account's year; money of that year. Start +
// Contributions + Growth - Withdrawals + Conversions = End.
type AccountYear struct {
	Start         float64
	Contributions float64 // paid in: own, employer, bonus, savings moved in; after any entry tax
	Growth        float64 // after any tax on earnings inside the wrapper
	Withdrawals   float64 // taken out, required minimums included
	Conversions   float64 // moved in (positive) or out (negative)
	End           float64
	// SEPP is the part of Withdrawals paid as substantially equal
	// periodic payments (free of the early charge)
	SEPP float64
}

// Taxes are a year's taxes; money of that year.
type Taxes struct {
	Income    float64 // national and regional income tax, entry and recovery taxes
	Social    float64 // social contributions
	Capital   float64 // capital taxes levied apart from income tax
	Penalties float64 // charges on withdrawals before an access age
	Wealth    float64 // wealth tax on the holdings (see wealthTax)
	Total     float64
	// WealthOn: the residence taxes wealth (Wealth may still be 0, below
	// its allowance)
	WealthOn bool
}

// Row is what a year adds to the projection row of compute/fi.
type Row struct {
	PartnerAge int     // -1 without a partner
	Employment float64 // gross wages
	Pensions   float64 // pensions and benefits paid, Spousal and Survivor included
	Spousal    float64 // benefits paid on a living partner's record
	Survivor   float64 // benefits paid on a dead partner's record
	Yield      float64 // dividends and interest taxable accounts paid out
	Required   float64 // required minimum withdrawals taken
	Converted  float64 // moved between wrappers by conversions
	OverLimit  float64 // contributions above a limit, paid into the taxable account
	Drawn      float64 // withdrawals beyond the required minimums, for spending and tax
	Short      float64 // spending and tax left unmet
	// Split is the pension income moved from one partner's return to the
	// other's (pension income splitting)
	Split float64
	// Advance is the deemed gain of the year before taxed this year (the
	// Vorabpauschale), before any share of it is exempt
	Advance float64
	// SEPP are the periodic payments of the year (IRC 72(t) series);
	// Recapture the charge of a series modified this year, with interest
	// (within Tax.Penalties)
	SEPP, Recapture float64
	// MeansTested are the means-tested pensions paid (the GIS, the Age
	// Pension), within Pensions
	MeansTested float64
	Tax         Taxes
	Residence   string // the country code the year is taxed in ("" without tax)
	Health      HealthYear
}

// HealthYear is a year's health-care spending and what income changed in it;
// money of the year.
type HealthYear struct {
	Premiums  float64 // the plan's health-care spending
	Credit    float64 // the premium tax credit received
	Surcharge float64 // income-related premium surcharges paid (Medicare IRMAA)
}

// Bridge is a run of retired years in which some tax-deferred or pension
// money is not yet open, and the accounts that pay for those years.
type Bridge struct {
	FromAge, ToAge int // ages of the first person, both included
	Accounts       []int
}

// Baseline is the plan drawn in the conventional order without
// conversions, to compare the chosen order with.
type Baseline struct {
	LifetimeTax   float64 // today's money
	LifetimeTaxPV float64 // discounted to today at the plan's return
	DepletionAge  int     // -1 when the money lasts
	EndReal       float64 // the end balance in today's money
	AfterTaxEnd   float64 // EndReal less the tax its pre-tax money owes
}

// Result is a household projection. Its buffers are reused from call to
// call.
type Result struct {
	Summary fi.Summary
	Rows    []fi.Year
	Extra   []Row
	// Cells holds each row's accounts: row t's are
	// Cells[t*len(IDs) : (t+1)*len(IDs)], in the order of IDs.
	Cells []AccountYear
	// IDs are the accounts' ids, those the engine added (the taxable
	// account, a Roth conversions go to) after the plan's.
	IDs         []string
	LifetimeTax float64 // today's money
	// LifetimeTaxPV is every year's tax discounted to today at the plan's
	// return; AfterTaxEnd the real end balance less the tax its pre-tax
	// money still owes (Outcome says how).
	LifetimeTaxPV, AfterTaxEnd float64
	// Spending is the first retirement spending, today's money, before
	// tax: the FI number's numerator.
	Spending float64
	// Joint: some year was taxed as a couple's joint return.
	Joint bool
	// DrewDown: some year drew on the accounts for spending or tax, or
	// spending went unmet: the plan has a success or a failure to count.
	DrewDown bool
	Bridges  []Bridge
	Baseline Baseline

	bridgeIDs []int
}

// Accounts is row t's accounts.
func (r *Result) Accounts(t int) []AccountYear {
	n := len(r.IDs)
	return r.Cells[t*n : (t+1)*n]
}
