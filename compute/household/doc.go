// Package household plans a household's money year by year: one or two
// people with their own ages, incomes and retirement ages; accounts in
// the wrappers of their tax country (a 401(k), an ISA, an RRSP, super, a
// taxable account), each with the statute's contribution limits, access
// ages, charges, required minimums and tax treatment; statutory pensions
// claimed at an age with the statute's reduction or credit; spending by
// phase of life; moves between countries. Each year is taxed by compute/tax
// on the income really received.
//
// The rules that differ by country are data (Rules, decoded from a
// country's wrapper file by ParseRules); the engine reads them and holds
// no country's rule in code.
//
// docs/HOUSEHOLD.md states the method year step by step (what is taxed and
// when, the drawing orders, access ages, conversions, Monte Carlo and
// backtests) and lists what it simplifies; DATA.md describes the wrapper
// files.
package household
