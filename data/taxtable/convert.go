//go:build ignore

// convert rewrites tax files in the dated form that compute/tax's Convert
// writes: each rule once beside the years, a value that differs between
// years dated at each change, an element that starts or ends inside the
// years with since and until, every figure's indexation and sunset kept.
// It reads a file in either form, checks that the result parses to the
// same years (published and projected) and writes it in place; run again
// on a converted file it changes nothing. A year edited in full (the
// older form) is folded in the same way:
//
//	go run ./data/taxtable/convert.go embed/tax/countries/*.json
package main

import (
	"fmt"
	"os"

	"fiplan/compute/tax"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./data/taxtable/convert.go FILE...")
		os.Exit(2)
	}
	failed := false
	for _, name := range os.Args[1:] {
		b, err := os.ReadFile(name)
		if err == nil {
			var out []byte
			if out, err = tax.Convert(b); err == nil {
				err = os.WriteFile(name, out, 0o644)
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}
