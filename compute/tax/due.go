package tax

// Categories is a tax due by the result field each rule feeds, rounded to
// the cent as Calculate rounds them.
type Categories struct {
	Income, Social, Capital, Regional float64
}

// Total is the sum of the categories, TotalTax in Calculate's terms.
func (c *Categories) Total() float64 {
	return round2(c.Income + c.Social + c.Capital + c.Regional)
}

// DueByCategory is Due (without a regime) split as Calculate splits
// TotalTax: for callers that need the parts of many incomes' tax without
// the breakdown lines. It does not allocate.
func DueByCategory(s *System, year int, in *Income, region string) (Categories, error) {
	y, err := s.Year(year)
	if err != nil {
		return Categories{}, err
	}
	return y.DueByCategory(in, region, nil)
}

// DueByCategory is DueByCategory on the year's rules with its figures read
// through sc (nil: as stored; see Scale), the incomes in the scale's money.
// It does not allocate.
func (y *Year) DueByCategory(in *Income, region string, sc *Scale) (Categories, error) {
	v, err := y.sys.viewFor(y, region, in)
	if err != nil {
		return Categories{}, err
	}
	var st state
	st.sc = scaleOrNil(sc)
	st.parts, _ = cleanParts(in)
	st.who = filerOf(in, &st.parts)
	st.run(v)
	var cat [numCategories]float64
	for i := range v.rules {
		cat[v.rules[i].Category] += st.amt[i]
	}
	return Categories{Income: round2(cat[IncomeTax]), Social: round2(cat[Social]),
		Capital: round2(cat[Capital]), Regional: round2(cat[Regional])}, nil
}
