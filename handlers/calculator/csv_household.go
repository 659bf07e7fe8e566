package calculator

import (
	"slices"

	"fiplan/compute/household"
	"fiplan/compute/plan"
)

const csvHouseholdDesc = "A household plan (any of partner, accounts, spending, withdrawalOrder, conversions, relocations, tax.filing, a partner's or statutory pension) adds, after those: " +
	"partnerAge (empty without a partner), employment, pensions, with tax incomeTax, socialContributions, capitalTax, penalties and wealthTax (empty where the residence taxes no wealth; their sum is the tax column), " +
	"residence, overLimit, requiredWithdrawals, conversions, shortfall, pensionSplit, vorabpauschale, yield, spousal, survivor, healthPremiums, healthCredit, healthSurcharge, sepp, seppRecapture, meansTested (the JSON row's income.yield, income.spousal, income.survivor, health, sepp, seppRecapture and income.meansTested), then for each account <id>.startBalance, <id>.contributions, <id>.growth, <id>.withdrawals, <id>.conversions and <id>.endBalance, " +
	"accounts in the order of the JSON rows' accounts (the plan's, then those the engine adds); a scenario without an account leaves its cells empty. "

// householdColumns are the account columns of a household CSV answer: the
// accounts of every plan, in order of first appearance, and where plan's
// row holds each.
type householdColumns struct {
	ids []string
	at  []int // the current plan's index of ids[j] in its IDs, -1 when absent
	buf [household.MaxAccounts + 4]string
	pos [household.MaxAccounts + 4]int
}

// collect gathers the accounts of r's plans.
func (c *householdColumns) collect(r *plan.Result) {
	c.ids = c.buf[:0]
	for k := range r.Plans {
		if h := r.Plans[k].Household; h != nil {
			for _, id := range h.IDs {
				if !slices.Contains(c.ids, id) {
					c.ids = append(c.ids, id)
				}
			}
		}
	}
}

// plan points the account columns at h's accounts.
func (c *householdColumns) plan(h *plan.HouseholdResult) {
	c.at = c.pos[:0]
	for _, id := range c.ids {
		j := -1
		if h != nil {
			j = slices.Index(h.IDs, id)
		}
		c.at = append(c.at, j)
	}
}

// appendHeader appends the household columns' names (after the one-pot
// plan's).
func (c *householdColumns) appendHeader(b []byte, taxed bool) []byte {
	b = appendHouseholdCSVHeader(b, taxed)
	for _, id := range c.ids {
		for _, f := range csvAccountFields {
			b = appendCSVField(append(b, ','), id+f)
		}
	}
	return b
}

// appendRow appends row i's household cells, the generated
// appendHouseholdCSVRow's and each account's; h nil (not expected: every
// plan of a household request is one) leaves them empty.
func (c *householdColumns) appendRow(b []byte, h *plan.HouseholdResult, i int, taxed bool) []byte {
	if h == nil {
		for range householdCSVCells(taxed) + len(csvAccountFields)*len(c.ids) {
			b = append(b, ',')
		}
		return b
	}
	b = appendHouseholdCSVRow(b, &h.Extra[i], taxed)
	accts := h.Accounts(i)
	for _, j := range c.at {
		if j < 0 {
			for range csvAccountFields {
				b = append(b, ',')
			}
			continue
		}
		b = appendCSVAccount(b, &accts[j])
	}
	return b
}
