package tax

// AgeRules reports whether any of the system's rules depends on the
// taxpayer's age: a caller taxing the same income at many ages needs to
// compute it again for each age only then.
func (s *System) AgeRules() bool { return s.ageRules }

// anyAgeRule reports whether a rule, layer or adjustment of some year
// holds only from or up to an age, or counts people by age.
func anyAgeRule(years []Year) bool {
	for i := range years {
		for j := range years[i].Rules {
			r := &years[i].Rules[j]
			if r.When.MinAge > 0 || r.When.MaxAge > 0 {
				return true
			}
			for k := range r.Layers {
				if r.Layers[k].When.MinAge > 0 || r.Layers[k].When.MaxAge > 0 {
					return true
				}
			}
			for _, adj := range [2][]Adjust{r.Deductions, r.Credits} {
				for k := range adj {
					if adj[k].When.MinAge > 0 || adj[k].When.MaxAge > 0 || adj[k].PerMinAge > 0 {
						return true
					}
				}
			}
		}
	}
	return false
}
