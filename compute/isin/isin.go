// Package isin checks International Securities Identification Numbers
// (ISO 6166): two letters for the issuing country, nine alphanumeric
// characters, and a check digit computed by the Luhn algorithm over the
// digits obtained by writing each letter as its value A=10 ... Z=35.
package isin

// Check returns "" for a valid ISIN, or why it is not one.
func Check(s string) string {
	if len(s) != 12 {
		return "must be 12 characters"
	}
	for i := 0; i < 12; i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			if i == 11 {
				return "must end in a check digit"
			}
		case c >= '0' && c <= '9':
			if i < 2 {
				return "must start with a two-letter country code"
			}
		default:
			return "must be upper-case letters and digits"
		}
	}
	if !luhn(s) {
		return "has a wrong check digit"
	}
	return ""
}

// Valid reports whether s is a valid ISIN.
func Valid(s string) bool { return Check(s) == "" }

// Country returns the two-letter prefix of a valid ISIN.
func Country(s string) string { return s[:2] }

// luhn runs the Luhn check over the expanded digits, right to left.
func luhn(s string) bool {
	var digits [24]byte
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			v := c - 'A' + 10
			digits[n], digits[n+1] = v/10, v%10
			n += 2
		} else {
			digits[n] = c - '0'
			n++
		}
	}
	sum := 0
	for i, double := n-1, false; i >= 0; i, double = i-1, !double {
		d := int(digits[i])
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}
