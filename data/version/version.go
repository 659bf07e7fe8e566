// Package version names the embedded data as a whole.
package version

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"sort"
	"strconv"
	"sync"

	"fiplan/embed"
)

// Data names the embedded data as a whole: a hash of every dataset
// (tax and wrapper files, cities, exchange rates, return histories, tax
// programs), so that any new tax year, city refresh or corrected figure
// gives another version. A saved plan keeps the version its answer was
// computed with, and a plan of an older version is computed again.
var Data = sync.OnceValue(func() string {
	h := sha256.New()
	add := func(name string, b []byte) {
		h.Write([]byte(name + "\x00" + strconv.Itoa(len(b)) + "\x00"))
		h.Write(b)
	}
	for _, f := range []struct {
		name string
		b    []byte
	}{{"cities", embed.Cities}, {"fx", embed.FX}, {"history", embed.History}, {"home", embed.Home}, {"programs", embed.Programs}, {"shiller", embed.Shiller}} {
		add(f.name, f.b)
	}
	var names []string
	_ = fs.WalkDir(embed.Tax, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	for _, n := range names {
		b, err := fs.ReadFile(embed.Tax, n)
		if err != nil {
			b = []byte(err.Error())
		}
		add(n, b)
	}
	return "data-" + hex.EncodeToString(h.Sum(nil)[:8])
})
