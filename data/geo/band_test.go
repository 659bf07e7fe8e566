package geo_test

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"fiplan/data/geo"
)

func TestClimateBands(t *testing.T) {
	tb := table(t)
	count := map[string]int{}
	for _, c := range tb.All() {
		b := c.Climate.Band()
		if !slices.Contains(geo.ClimateBands, b) {
			t.Fatalf("%s: band %q is not in ClimateBands", c.ID, b)
		}
		count[b]++
	}
	for _, b := range geo.ClimateBands {
		if count[b] < 10 {
			t.Errorf("band %q has %d cities; the bands should split the dataset usefully", b, count[b])
		}
	}
	for id, want := range map[string]string{
		"helsinki-fi": geo.ClimateCold, "new-york-us": geo.ClimateCold, "montreal-ca": geo.ClimateCold,
		"london-gb": geo.ClimateTemperate, "san-francisco-us": geo.ClimateTemperate, "bogota-co": geo.ClimateTemperate,
		"lisbon-pt": geo.ClimateWarm, "athens-gr": geo.ClimateWarm, "mexico-city-mx": geo.ClimateWarm,
		"dubai-ae": geo.ClimateHot, "phoenix-us": geo.ClimateHot, "bangkok-th": geo.ClimateHot, "chiang-mai-th": geo.ClimateHot,
	} {
		if got := city(t, tb, id).Climate.Band(); got != want {
			t.Errorf("%s: band %q, want %q", id, got, want)
		}
	}
	// The rules at their edges.
	for _, tc := range []struct {
		cold, warm float64
		want       string
	}{
		{4.9, 30, geo.ClimateCold}, {5, 20, geo.ClimateTemperate}, {24, 26, geo.ClimateHot},
		{23.9, 37.9, geo.ClimateWarm}, {10, 38, geo.ClimateHot}, {12, 25, geo.ClimateWarm},
		{12, 24.9, geo.ClimateTemperate}, {11.9, 30, geo.ClimateTemperate},
	} {
		if got := (geo.Climate{AvgHighColdestC: tc.cold, AvgHighWarmestC: tc.warm}).Band(); got != tc.want {
			t.Errorf("Band(%v, %v) = %q, want %q", tc.cold, tc.warm, got, tc.want)
		}
	}
}

// slugReference is the original definition of Slug, kept to check that
// AppendFold folds exactly as it did.
func slugReference(name string) string {
	translit := strings.NewReplacer(
		"á", "a", "à", "a", "â", "a", "ã", "a", "ä", "a", "å", "a", "ă", "a", "ā", "a",
		"é", "e", "è", "e", "ê", "e", "ë", "e", "ē", "e",
		"í", "i", "ì", "i", "î", "i", "ï", "i", "ı", "i", "ī", "i",
		"ó", "o", "ò", "o", "ô", "o", "õ", "o", "ö", "o", "ø", "o", "ő", "o", "ō", "o",
		"ú", "u", "ù", "u", "û", "u", "ü", "u", "ű", "u", "ū", "u",
		"ç", "c", "č", "c", "ć", "c", "ñ", "n", "ń", "n", "š", "s", "ş", "s", "ș", "s", "ś", "s",
		"ž", "z", "ż", "z", "ź", "z", "ł", "l", "ţ", "t", "ț", "t", "ğ", "g", "đ", "d", "ř", "r",
		"ý", "y", "æ", "ae", "œ", "oe", "ß", "ss", "þ", "th", "ð", "d",
	)
	s := translit.Replace(strings.ToLower(name))
	var b strings.Builder
	dash := false
	for _, r := range s {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

func TestAppendFoldMatchesSlug(t *testing.T) {
	inputs := []string{"", " ", "--", "São Paulo", "  KRAKÓW ", "Ærø-ß", "İstanbul", "a\xffb", "Œuvre Þing", "x--y", "ÀÉÎÕÜ"}
	for _, c := range table(t).All() {
		inputs = append(inputs, c.Name, c.CountryName, strings.ToUpper(c.Name))
	}
	alphabet := []rune("aZ09 -_.,'/áÁéÉíóÖøØüÜçÇñÑšŠßæÆœłŁİıÿ\u0301\xff")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		r := make([]rune, rng.IntN(12))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		inputs = append(inputs, string(r))
	}
	for _, in := range inputs {
		want := slugReference(in)
		if got := string(geo.AppendFold([]byte("keep:"), in)); got != "keep:"+want {
			t.Fatalf("AppendFold(%q) = %q, want %q", in, got, "keep:"+want)
		}
		if got := geo.Slug(in); got != want {
			t.Fatalf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = geo.AppendFold(buf[:0], "Viña del Mar, São Paulo") }); n != 0 {
		t.Errorf("AppendFold allocates %v times", n)
	}
}

// The enum lists in the City tags (they document the API) are the
// exported lists.
func TestTagEnumsMatchLists(t *testing.T) {
	typ := reflect.TypeOf(geo.City{})
	for field, list := range map[string][]string{"Region": geo.Regions, "EnglishProficiency": geo.EnglishBands} {
		f, _ := typ.FieldByName(field)
		tag := f.Tag.Get("schema")
		_, enum, ok := strings.Cut(tag, "enum=")
		if !ok {
			t.Fatalf("%s has no enum in %q", field, tag)
		}
		enum, _, _ = strings.Cut(enum, ",")
		if got := strings.Split(enum, "|"); !slices.Equal(got, list) {
			t.Errorf("%s enum %v, list %v", field, got, list)
		}
	}
}
