package tax

import "testing"

// The taxed part of a Social Security benefit (IRC §86) is ordinary income
// federally, like a pension; a state taxes it only where its base lists it:
// New York exempts it (Tax Law §612(c)(3)), Montana taxes what the federal
// return includes (MCA 15-30-2110).
func TestUSSocialSecurityPart(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "us")
	for _, y := range []int{2025, 2026} {
		var ss, pen Result
		in := Income{SocialSecurity: 30000, Pension: 20000, Age: 70}
		as := Income{Pension: 50000, Age: 70}
		if err := Calculate(s, y, &in, "NY", &ss); err != nil {
			t.Fatal(err)
		}
		if err := Calculate(s, y, &as, "NY", &pen); err != nil {
			t.Fatal(err)
		}
		if ss.IncomeTax != pen.IncomeTax {
			t.Errorf("%d: federal tax %.2f with the benefit, %.2f with the same pension", y, ss.IncomeTax, pen.IncomeTax)
		}
		var pensionOnly Result
		only := Income{Pension: 20000, Age: 70}
		if err := Calculate(s, y, &only, "NY", &pensionOnly); err != nil {
			t.Fatal(err)
		}
		if ss.RegionalTax != pensionOnly.RegionalTax || pen.RegionalTax <= ss.RegionalTax {
			t.Errorf("%d NY: state tax %.2f with the benefit, %.2f without it, %.2f with a pension instead", y, ss.RegionalTax, pensionOnly.RegionalTax, pen.RegionalTax)
		}
		var mt, mtPen Result
		if err := Calculate(s, y, &in, "MT", &mt); err != nil {
			t.Fatal(err)
		}
		if err := Calculate(s, y, &as, "MT", &mtPen); err != nil {
			t.Fatal(err)
		}
		if mt.RegionalTax != mtPen.RegionalTax || mt.RegionalTax == 0 {
			t.Errorf("%d MT: state tax %.2f with the benefit, %.2f with the same pension", y, mt.RegionalTax, mtPen.RegionalTax)
		}
	}
}
