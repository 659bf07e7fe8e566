package tax

import "strconv"

// The CA file gained the age amount and the pension income amount
// (federal, Ontario's in Ontario) for people 65 or older: every CA line of
// the grid at age 70 pays less (the federal credits apply in every
// province; Ontario's only in Ontario and without a region).
func init() {
	regions := map[int][]string{
		2024: {"-", "ON", "QC"},
		2025: {"-", "AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"},
	}
	regions[2026] = regions[2025]
	for year, list := range regions {
		for _, r := range list {
			gridChanged["CA "+strconv.Itoa(year)+" "+r+" single 70"] = "age amount and pension income amount from 65"
		}
	}
}
