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
	v, k, err := y.sys.viewAt(y, region, in)
	if err != nil {
		return Categories{}, err
	}
	parts, _ := cleanParts(in)
	who := filerOf(in, &parts)
	return y.compiledFor(v, k, &who).DueByCategory(in, sc), nil
}
