package store

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestFlagsLifecycle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.db")
	d, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	type def struct {
		Enabled bool `json:"enabled"`
	}
	if created, err := d.PutFlag("b-flag", def{true}); err != nil || !created {
		t.Fatalf("put: %v %v", created, err)
	}
	if created, err := d.PutFlag("b-flag", def{false}); err != nil || created {
		t.Fatalf("replace: %v %v", created, err)
	}
	if _, err := d.PutFlag("a-flag", def{true}); err != nil {
		t.Fatal(err)
	}
	if err := d.RecordExposures(map[string]map[string]string{
		"b-flag": {"alice": "green", "bob": "blue", "carol": Disabled},
		"gone":   {"alice": "x"},
	}); err != nil {
		t.Fatal(err)
	}
	if err := d.RecordExposures(map[string]map[string]string{"b-flag": {"alice": "green", "dave": "green"}}); err != nil {
		t.Fatal(err)
	}
	counts, err := d.Exposures("b-flag")
	if err != nil || counts["green"] != 2 || counts["blue"] != 1 || counts[Disabled] != 1 || len(counts) != 3 {
		t.Fatalf("counts %v %v", counts, err)
	}
	if c, _ := d.Exposures("gone"); len(c) != 0 {
		t.Fatal("exposures of an unknown flag were kept")
	}
	// Erasing a user removes their exposures.
	if err := d.DeleteUser("alice"); err != nil {
		t.Fatal(err)
	}
	if c, _ := d.Exposures("b-flag"); c["green"] != 1 {
		t.Fatalf("after erasure %v", c)
	}
	d.Close()

	d, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var keys []string
	if err := d.Flags(func(k string, raw []byte) error {
		keys = append(keys, k+"="+string(raw))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0] != `a-flag={"enabled":true}` || keys[1] != `b-flag={"enabled":false}` {
		t.Fatalf("after reopen: %v", keys)
	}
	if err := d.DeleteFlag("b-flag"); err != nil {
		t.Fatal(err)
	}
	if err := d.DeleteFlag("b-flag"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if c, _ := d.Exposures("b-flag"); len(c) != 0 {
		t.Fatal("exposures outlived their flag")
	}
}
