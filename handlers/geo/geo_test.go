package geo

import (
	"bytes"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/compute/geo"
	geodata "fiplan/data/geo"
	"fiplan/data/program"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// newTestHandlers builds Handlers over the embedded datasets.
func newTestHandlers(tb testing.TB) *Handlers {
	tb.Helper()
	cities, err := geodata.Embedded()
	if err != nil {
		tb.Fatal(err)
	}
	programs, err := program.Embedded()
	if err != nil {
		tb.Fatal(err)
	}
	v := schema.NewVocabulary().Enum("geoRegion", geodata.Regions).Enum("climateBand", geodata.ClimateBands).Enum("englishBand", geodata.EnglishBands)
	g, err := New(v, Config{Cities: cities, Programs: programs})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(g.Close)
	return g
}

type answer struct {
	status int
	raw    []byte
}

// serve calls handler h with a request of method, uri and body, without
// the server's chain.
func serve(tb testing.TB, h func(*rest.Ctx), method, uri, body string) answer {
	tb.Helper()
	var rc fasthttp.RequestCtx
	rc.Init(&fasthttp.Request{}, &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 4000}, nil)
	rc.Request.Header.SetMethod(method)
	rc.Request.SetRequestURI(uri)
	rc.Request.SetBodyString(body)
	c := rest.AcquireCtx(&rc, slog.New(slog.DiscardHandler), time.Now())
	defer rest.ReleaseCtx(c)
	h(c)
	return answer{rc.Response.StatusCode(), append([]byte(nil), rc.Response.Body()...)}
}

func recommend(tb testing.TB, g *Handlers, body string) answer {
	tb.Helper()
	return serve(tb, g.Recommend, "POST", "/api/v1/geo/recommendations", body)
}

// Requests equal in meaning share one cache entry, and the cached answer
// is byte for byte the computed one.
func TestGeoRecommendationsCache(t *testing.T) {
	g := newTestHandlers(t)
	variants := []string{
		`{"monthlyBudgetUSD":2800,"householdSize":2,"preferences":{"regions":["europe-south","southeast-asia"],"minSafety":60,"climate":["warm","hot"]}}`,
		"{ \"preferences\" : {\"climate\":[\"hot\",\"warm\",\"hot\"], \"minSafety\":60,\n \"regions\":[\"southeast-asia\",\"europe-south\"]},\n\t\"householdSize\":2, \"monthlyBudgetUSD\": 2.8e3, \"limit\": 20 }",
		`{"limit":20,"monthlyBudgetUSD":2800.0,"householdSize":2,"preferences":{"regions":["southeast-asia","europe-south","europe-south"],"climate":["hot","warm"],"minSafety":60,"minHealthcare":0,"taxFriendly":false}}`,
	}
	hits := g.hits.Load()
	first := recommend(t, g, variants[0])
	if first.status != 200 || g.hits.Load() != hits {
		t.Fatalf("first request: %d, hits %d", first.status, g.hits.Load()-hits)
	}
	g.cache.Wait()
	for i, v := range variants {
		r := recommend(t, g, v)
		if !bytes.Equal(r.raw, first.raw) {
			t.Fatalf("variant %d answers other bytes:\n%s\n%s", i, r.raw, first.raw)
		}
		if got := g.hits.Load() - hits; got != uint64(i+1) {
			t.Fatalf("variant %d: %d cache hits, want %d", i, got, i+1)
		}
	}
	// A request that differs in meaning is another entry.
	other := recommend(t, g, `{"monthlyBudgetUSD":2800,"householdSize":2,"preferences":{"regions":["europe-south"],"minSafety":60,"climate":["warm","hot"]}}`)
	if bytes.Equal(other.raw, first.raw) || g.hits.Load()-hits != uint64(len(variants)) {
		t.Fatal("a different request was answered from the cache")
	}
	// The uncached computation, with the cache off, gives the same bytes.
	cache := g.cache
	g.cache = nil
	again := recommend(t, g, variants[1])
	g.cache = cache
	if !bytes.Equal(again.raw, first.raw) {
		t.Fatal("uncached and cached answers differ")
	}
}

// placeOf gives the engine every figure it scores and compares, with the
// dataset's names mapped to the engine's values; a name the engine does
// not know stops start-up.
func TestGeoPlaceOf(t *testing.T) {
	g := newTestHandlers(t)
	// The engine's names are the dataset's, in the same order: the schema
	// validates requests against the dataset's lists.
	for i, b := range geodata.ClimateBands {
		if geo.Band(i).String() != b {
			t.Fatalf("band %d is %q in the engine, %q in the dataset", i, geo.Band(i), b)
		}
	}
	for i, e := range geodata.EnglishBands {
		if geo.English(i+1).String() != e {
			t.Fatalf("English band %d is %q in the engine, %q in the dataset", i, geo.English(i+1), e)
		}
	}
	all := g.cities
	if len(g.places) != len(all) {
		t.Fatalf("%d places for %d cities", len(g.places), len(all))
	}
	for i, c := range all {
		p := &g.places[i]
		if p.ID != c.ID || p.Name != c.Name || p.Band.String() != c.Climate.Band() || p.English.String() != c.EnglishProficiency ||
			geodata.Regions[p.Region] != c.Region || p.Safety != c.SafetyIndex || p.Healthcare != c.HealthcareIndex || p.InternetMbps != c.InternetMbps ||
			p.ColdestHighC != c.Climate.AvgHighColdestC || p.WarmestHighC != c.Climate.AvgHighWarmestC || p.RentOutside != c.Rents.OneBedOutside {
			t.Fatalf("%s: place %+v", c.ID, p)
		}
		if p.Single.Total() != c.MonthlyCostUSD || p.Family.Total() != c.MonthlyCostFamilyUSD || p.Budget(1) != p.Single || p.Budget(4) != p.Family {
			t.Fatalf("%s: budgets %v %v", c.ID, p.Single, p.Family)
		}
		if (p.RetirementVisa == "") != (len(c.Visas.Retirement) == 0) || (p.NomadVisa == "") != (len(c.Visas.DigitalNomad) == 0) {
			t.Fatalf("%s: visas %q %q", c.ID, p.RetirementVisa, p.NomadVisa)
		}
	}
	for name, mod := range map[string]func(*geodata.City){
		"fluent": func(c *geodata.City) { c.EnglishProficiency = "fluent" },
		"mars":   func(c *geodata.City) { c.Region = "mars" },
	} {
		c := all[0]
		mod(&c)
		if _, err := placeOf(&c, ""); err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), c.ID) {
			t.Errorf("%s: error %v", name, err)
		}
	}
	if p, err := placeOf(&all[0], "Some regime"); err != nil || p.TaxProgram != "Some regime" {
		t.Fatalf("tax program %q, %v", p.TaxProgram, err)
	}
}
