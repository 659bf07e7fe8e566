package calculator

import (
	"bytes"
	"os"
	"testing"

	"fiplan/handlers/calculator/internal/rowgen"
)

// TestRowEncodersGenerated regenerates the row encoders from response.go
// into memory and requires rows_gen.go to be what go generate would write:
// an edited declaration without go generate fails here.
func TestRowEncodersGenerated(t *testing.T) {
	src, err := os.ReadFile("response.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := rowgen.Generate("response.go", src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("rows_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("rows_gen.go is stale: run go generate ./handlers/calculator/\nwant:\n%s", want)
	}
}
