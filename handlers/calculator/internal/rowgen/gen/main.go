// Command gen writes rows_gen.go, the calculator's row encoders, from the
// row declaration in response.go. Run by go generate in the calculator
// package's directory.
package main

import (
	"fmt"
	"os"

	"fiplan/handlers/calculator/internal/rowgen"
)

func main() {
	if err := run("response.go", "rows_gen.go"); err != nil {
		fmt.Fprintln(os.Stderr, "rowgen:", err)
		os.Exit(1)
	}
}

func run(decl, out string) error {
	src, err := os.ReadFile(decl)
	if err != nil {
		return fmt.Errorf("cannot read %q: %w", decl, err)
	}
	code, err := rowgen.Generate(decl, src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, code, 0o644); err != nil {
		return fmt.Errorf("cannot write %q: %w", out, err)
	}
	return nil
}
