package store

import (
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testdata/v1.db was written by the store of the first release (schema
// version 1, categories as codes 0-2) and is never rewritten: opening a copy
// with today's code must read every record back.
func TestFixtureV1(t *testing.T) {
	raw, err := os.ReadFile("testdata/v1.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "v1.db")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	d := openT(t, path)
	if v := func() uint64 { d.Close(); return rawVersion(t, path) }(); v != schemaVersion {
		t.Fatalf("schema version after open = %d, want %d", v, schemaVersion)
	}
	d = openT(t, path)

	if a, err := d.Account("alice"); err != nil || a.Tier != "pro" || a.CreatedAt.IsZero() {
		t.Fatalf("account = %+v, %v", a, err)
	}
	var prof struct {
		CurrentAge   int    `json:"currentAge"`
		BaseCurrency string `json:"baseCurrency"`
	}
	if ok, err := d.GetDoc("alice", "profile", &prof); err != nil || !ok || prof.CurrentAge != 38 || prof.BaseCurrency != "EUR" {
		t.Fatalf("profile = %+v, %v, %v", prof, ok, err)
	}

	assets := []struct {
		id, isin string
		cat      uint8
		name     string
	}{
		{"ast_world", "IE00BK5BQT80", CategoryEquity, "equity"},
		{"ast_bond", "IE00B3F81409", CategoryBond, "bond"},
		{"ast_cash", "", CategoryCash, "cash"},
	}
	for _, a := range assets {
		doc, err := d.AppendAsset(nil, "alice", a.id)
		if err != nil || !strings.Contains(string(doc), `"id":"`+a.id+`"`) || !strings.Contains(string(doc), `"category":"`+a.name+`"`) {
			t.Errorf("asset %s = %s, %v", a.id, doc, err)
		}
		// The stored category code still selects the asset.
		list, total, err := d.AppendAssets(nil, "alice", int(a.cat), 0, 10)
		if err != nil || total != 1 || !strings.Contains(string(list), `"id":"`+a.id+`"`) {
			t.Errorf("category %s lists %s (total %d), %v", a.name, list, total, err)
		}
		if a.isin != "" {
			m := AssetMeta{ID: "dup_" + a.id, ISIN: a.isin}
			if err := d.CreateAsset("alice", m, []byte(`{}`), 1000, nil); !errors.Is(err, ErrConflict) {
				t.Errorf("stored ISIN %s no longer held: %v", a.isin, err)
			}
		}
	}
	if _, total, _ := d.AppendAssets(nil, "alice", AnyCategory, 0, 10); total != 3 {
		t.Fatalf("%d assets, want 3", total)
	}

	created := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	k, a, err := d.LookupKey(sha256.Sum256([]byte("svc_fixture_plain_key")))
	if err != nil || k.ID != "key_fixture" || k.Owner != "alice" || k.Name != "fixture script" || k.Hint != "svc_…f1x7" ||
		!k.CreatedAt.Equal(created) || !k.LastUsedAt.Equal(created.Add(time.Hour)) || a.Tier != "pro" {
		t.Fatalf("key = %+v, %+v, %v", k, a, err)
	}

	var flags []string
	err = d.Flags(func(key string, raw []byte) error {
		if !strings.Contains(string(raw), `"tiers":["pro"]`) {
			t.Errorf("flag %s = %s", key, raw)
		}
		flags = append(flags, key)
		return nil
	})
	if err != nil || len(flags) != 1 || flags[0] != "calculator-monte-carlo" {
		t.Fatalf("flags = %v, %v", flags, err)
	}
	if n, err := d.Exposures("calculator-monte-carlo"); err != nil || len(n) != 1 || n[""] != 1 {
		t.Fatalf("exposures = %v, %v", n, err)
	}
	if s, ok, err := d.PeekSecret(); err != nil || !ok || len(s) != secretLen {
		t.Fatalf("secret = %d bytes, %v, %v", len(s), ok, err)
	}

	e, err := d.Export("alice")
	if err != nil || e.Account == nil || len(e.Docs) != 1 || len(e.Assets) != 3 || len(e.Keys) != 1 || e.Exposures["calculator-monte-carlo"] != "" || len(e.Exposures) != 1 {
		t.Fatalf("export = %+v, %v", e, err)
	}
	// The old file takes new writes.
	if err := d.CreateAsset("alice", AssetMeta{ID: "ast_new", ISIN: "US0378331005", Category: CategoryCrypto}, []byte(`{"id":"ast_new"}`), 1000, nil); err != nil {
		t.Fatal(err)
	}
}
