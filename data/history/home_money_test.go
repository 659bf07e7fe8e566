package history

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"fiplan/compute/fi"
)

var updateHomeMoney = flag.Bool("update-home-money", false, "rewrite compute/fi/testdata/home_money.json from the embedded home record")

// compute/fi's replication test restates the annual record in euros and
// pounds; it may not import this package, so it reads the restating
// records from a file, which must be what this package reads from the
// embedded home record. -update-home-money rewrites it.
func TestHomeMoneyFixture(t *testing.T) {
	h, err := EmbeddedHome()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]fi.Money{"EUR/DE": h.Money("EUR", "DE"), "GBP/GB": h.Money("GBP", "GB")}
	for k, m := range want {
		if len(m.PerUSD) == 0 || len(m.Inflation) == 0 {
			t.Fatalf("%s: no rates or prices in the embedded home record", k)
		}
	}
	raw, err := json.MarshalIndent(want, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	raw = append(raw, '\n')
	const path = "../../compute/fi/testdata/home_money.json"
	if *updateHomeMoney {
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, raw) {
		t.Fatalf("%s differs from the embedded home record: go test ./data/history/ -run HomeMoneyFixture -update-home-money", path)
	}
}
