package taxtable_test

import (
	"sort"
	"strings"
	"testing"
	"time"

	"fiplan/data/taxtable"
)

// Why a document gives no asOf date (the version whose figures are used,
// which the explain panel shows beside each source).
const (
	consolidated = "consolidated text read as in force, and the file's notes give no date it was read"
	currentPage  = "the authority's current page: its title gives no year or update, and the file's notes no date it was read"
	formLine     = "a form line cited without its year or address"
)

// undatedDocuments lists, by "COUNTRY/document", every document of the tax
// files that gives no asOf, with the reason no date could be established
// from a source. A document leaves the list when it is dated, and the test
// then holds it there; no other document may lack a date.
var undatedDocuments = map[string]string{
	"AE/uae-tax":               "the portal page as read at the file's check, which its notes date to November 2026 without a day",
	"AE/cd49-2023":             "the day the Cabinet decision was issued was not found",
	"BE/cir92":                 consolidated,
	"BE/onss":                  currentPage,
	"BR/lei9250":               consolidated,
	"BR/rfb-tabelas":           currentPage,
	"CA/ita":                   consolidated,
	"CA/cra-rates":             currentPage,
	"CA/cra-dtc":               currentPage,
	"CA/cra-cpp":               currentPage,
	"CA/cra-ei":                currentPage,
	"CA/cra-cpp-se":            formLine,
	"CA/cra-22215":             formLine,
	"CA/cpp-act":               consolidated,
	"CA/ei-act":                consolidated,
	"CA/on-tax-act":            consolidated,
	"CA/c4":                    "a bill: the day it received royal assent was not found",
	"CH/dbg":                   consolidated,
	"CH/bkv":                   consolidated,
	"CH/avig":                  consolidated,
	"CH/zh-stg":                consolidated,
	"CH/zg-stg":                consolidated,
	"CH/ge-lipp":               consolidated,
	"CH/vd-li":                 consolidated,
	"CH/bs-stg":                consolidated,
	"CH/be-stg":                consolidated,
	"CH/ti-lt":                 consolidated,
	"CH/sthg":                  consolidated,
	"CH/bvg":                   consolidated,
	"CR/ccss-sem":              consolidated,
	"DK/psl":                   consolidated,
	"DK/ambl":                  consolidated,
	"DK/ll":                    consolidated,
	"DK/kskl":                  consolidated,
	"ES/lirpf":                 consolidated,
	"FI/tvl":                   consolidated,
	"GE/rs":                    currentPage,
	"GR/kfe":                   consolidated,
	"GR/teka":                  currentPage,
	"IE/tca1997":               consolidated,
	"IE/rev-band":              currentPage,
	"IE/rev-usc":               currentPage,
	"IE/rev-dirt":              currentPage,
	"IE/rev-cgt":               currentPage,
	"IE/swca2005":              consolidated,
	"IE/gov-prsi-s":            currentPage,
	"IT/tuir":                  consolidated,
	"JP/shotokuzeiho":          consolidated,
	"JP/sochiho":               consolidated,
	"JP/fukko":                 consolidated,
	"JP/nta-2260":              currentPage,
	"JP/nta-1130":              currentPage,
	"JP/nta-1600":              currentPage,
	"JP/nta-capital":           currentPage,
	"JP/chihozeiho":            consolidated,
	"JP/tokyo":                 currentPage,
	"MX/lisr":                  consolidated,
	"MX/lss":                   consolidated,
	"MY/ita1967":               consolidated,
	"MY/lhdn-relief":           currentPage,
	"MY/lhdn-rebate":           currentPage,
	"MY/epf-act":               consolidated,
	"NL/wib2001":               consolidated,
	"NL/wfsv":                  consolidated,
	"NL/zvw":                   consolidated,
	"NL/bd-tarief":             currentPage,
	"NL/bd-ahk":                currentPage,
	"NL/bd-ak":                 currentPage,
	"NL/bd-zvw":                currentPage,
	"NZ/acc2001":               consolidated,
	"NZ/ird-ietc":              currentPage,
	"PA/ley13":                 "the day and month of Ley 13 de 1987 were not found",
	"SE/il":                    consolidated,
	"SE/lapa":                  consolidated,
	"SE/reg-2024-avtrappning":  "a press release of September 2024 whose day was not found",
	"SE/skv-skattereduktioner": currentPage,
	"SE/skv-grundavdrag":       currentPage,
	"SG/ita1947":               consolidated,
	"SG/iras-eir":              currentPage,
	"SG/iras-cpf":              currentPage,
	"SG/iras-exempt":           currentPage,
	"SG/cpfact":                consolidated,
	"SG/cpf-rates":             currentPage,
}

// TestDocumentsDated finds every document of every tax file dated
// YYYY-MM-DD, no later than the newest modelled tax year's end, except the
// ones undatedDocuments lists with a reason: a listed document that gains a
// date, or a listed one that no longer exists, fails until it leaves the
// list, and so does an undated document that is not listed.
func TestDocumentsDated(t *testing.T) {
	tb, err := taxtable.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	latest := time.Date(newestTaxYear(t)+1, time.January, 1, 0, 0, 0, 0, time.UTC)
	seen := make(map[string]bool, len(undatedDocuments))
	for _, s := range tb.Countries() {
		keys := make([]string, 0, len(s.Documents))
		for k := range s.Documents {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			id := s.Country + "/" + k
			_, listed := undatedDocuments[id]
			seen[id] = true
			asOf := s.Documents[k].AsOf
			if asOf == "" {
				if !listed {
					t.Errorf("%s: no asOf (date it, or list it in undatedDocuments with the reason)", id)
				}
				continue
			}
			if listed {
				t.Errorf("%s: dated %s: drop it from undatedDocuments", id, asOf)
			}
			d, err := time.Parse(time.DateOnly, asOf)
			switch {
			case err != nil:
				t.Errorf("%s: asOf %q is not a date (YYYY-MM-DD)", id, asOf)
			case !d.Before(latest):
				t.Errorf("%s: asOf %s is after the newest tax year", id, asOf)
			}
		}
	}
	for id, why := range undatedDocuments {
		if !seen[id] {
			t.Errorf("%s: listed in undatedDocuments but no tax file has it", id)
		}
		if strings.TrimSpace(why) == "" {
			t.Errorf("%s: listed in undatedDocuments without a reason", id)
		}
	}
}
