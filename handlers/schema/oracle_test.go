package schema

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"fiplan/handlers/errcode"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Oracle compiles the generated JSON Schema with an independent JSON Schema
// validator. Tests in other packages use it to check that their request
// declarations accept and reject exactly what the published schema does.
type Oracle struct{ sch *jsonschema.Schema }

func newOracle(t testing.TB, doc []byte) *Oracle {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("body.json", v); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("body.json")
	if err != nil {
		t.Fatalf("generated schema does not compile: %v\n%s", err, doc)
	}
	return &Oracle{sch: sch}
}

// verdict is the oracle's answer for body: decodable is false when the body
// is not JSON the standard library accepts.
func (o *Oracle) verdict(body []byte) (decodable, ok bool) {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return false, false
	}
	return true, o.sch.Validate(v) == nil
}

// stricter reports bodies on which this package is deliberately stricter
// than JSON Schema: duplicate keys, invalid UTF-8, deep nesting, a string
// value holding U+0000.
func stricter(body []byte) bool {
	if !utf8.Valid(body) {
		return true
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	type frame struct {
		obj  bool
		keys map[string]bool
		key  bool // next string token in an object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if len(stack) >= MaxDepth {
					return true
				}
				if top != nil && top.obj {
					top.key = true
				}
				stack = append(stack, &frame{obj: v == '{', keys: map[string]bool{}, key: true})
			default:
				stack = stack[:len(stack)-1]
			}
		case string:
			if top != nil && top.obj && top.key {
				if top.keys[v] {
					return true
				}
				top.keys[v] = true
				top.key = false
				continue
			}
			if strings.IndexByte(v, 0) >= 0 {
				return true
			}
			if top != nil && top.obj {
				top.key = true
			}
		default:
			if top != nil && top.obj {
				top.key = true
			}
		}
	}
}

func checkAgainstOracle(t *testing.T, o *Oracle, body []byte) bool {
	t.Helper()
	var v testBody
	var r Result
	mine := testSchema.Decode(body, &v, &r)
	decodable, theirs := o.verdict(body)
	if !decodable {
		// The standard library refuses the body: either it is not JSON,
		// which must be INVALID_JSON, or it holds a number beyond float64,
		// which Decode rejects as out of range.
		if json.Valid(body) {
			if mine {
				t.Fatalf("accepted %q, which holds a number beyond float64", body)
			}
		} else if r.Code != errcode.InvalidJSON {
			t.Fatalf("standard library rejects %q but Decode says %q", body, r.Code)
		}
		return false
	}
	if stricter(body) {
		return false
	}
	if mine != theirs {
		t.Fatalf("disagreement on %s\nDecode: %v %s %v\noracle: %v", body, mine, r.Code, r.Details, theirs)
	}
	return mine
}

func TestOracleAgreesOnGeneratedBodies(t *testing.T) {
	o := newOracle(t, testSchema.JSONSchema())
	rng := rand.New(rand.NewPCG(1, 2))
	accepted := 0
	const n = 20000
	for range n {
		body := genObject(rng, testSchema.root, 0)
		if checkAgainstOracle(t, o, body) {
			accepted++
		}
	}
	// Both verdicts must be well represented for the comparison to mean
	// anything.
	if accepted < n/5 || accepted > n*4/5 {
		t.Fatalf("%d of %d generated bodies accepted: generator is off balance", accepted, n)
	}
}

func FuzzDecodeAgainstOracle(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		f.Add(genObject(rng, testSchema.root, 0))
	}
	f.Add([]byte(minimal))
	f.Add([]byte(`{"name":"\ud800x","currentAge":18,"annualIncome":0,"annualExpenses":1e-300}`))
	o := newOracle(f, testSchema.JSONSchema())
	f.Fuzz(func(t *testing.T, body []byte) {
		checkAgainstOracle(t, o, body)
	})
}

// mutation: about one value in this many is mutated away from valid.
const mutation = 30

// genObject writes a random body for o: mostly near-valid, with mutations.
func genObject(rng *rand.Rand, o *object, depth int) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for i := range o.fields {
		f := &o.fields[i]
		if !f.required && rng.IntN(3) == 0 || f.required && rng.IntN(mutation*3) == 0 {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(strconv.Quote(f.name))
		b.WriteByte(':')
		b.Write(genValue(rng, f, depth))
	}
	if rng.IntN(mutation*3) == 0 {
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"extra":1`)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func genValue(rng *rand.Rand, f *field, depth int) []byte {
	if rng.IntN(mutation) == 0 {
		// Any JSON type at all.
		return []byte([]string{`null`, `true`, `"s"`, `1`, `[]`, `{}`, `-0.0`, `"2020-01-01T00:00:00Z"`}[rng.IntN(8)])
	}
	switch f.kind {
	case kObject:
		if depth > 3 {
			return []byte(`{}`)
		}
		return genObject(rng, f.obj, depth+1)
	case kArray:
		max := f.maxItems
		if rng.IntN(mutation) == 0 {
			max++
		}
		var b bytes.Buffer
		b.WriteByte('[')
		for i := range rng.IntN(max + 1) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(genValue(rng, f.elem, depth+1))
		}
		b.WriteByte(']')
		return b.Bytes()
	case kNumber, kInteger:
		lo, hi := f.min, f.max
		var x float64
		switch rng.IntN(mutation * 3) {
		case 0:
			x = lo
		case 1:
			x = hi
		case 2:
			x = lo - 1
		case 3:
			x = hi + 1
		case 4:
			x = (lo + hi) / 2.5 // often not an integer
		default:
			x = lo + rng.Float64()*(hi-lo)
			if f.kind == kInteger || rng.IntN(2) == 0 {
				x = float64(int64(x))
			}
		}
		return strconv.AppendFloat(nil, x, 'g', -1, 64)
	case kString:
		if f.enum != nil && rng.IntN(4) != 0 {
			return []byte(strconv.Quote(f.enum[rng.IntN(len(f.enum))]))
		}
		max := f.maxLen
		if max < 0 {
			max = 8
		}
		n := rng.IntN(max + 1)
		if rng.IntN(mutation) == 0 {
			n += 2
		}
		var s strings.Builder
		for range n {
			s.WriteRune([]rune("aé€😀\n\"")[rng.IntN(6)])
		}
		return []byte(strconv.Quote(s.String()))
	case kTime:
		return []byte([]string{`"2025-06-01T12:00:00+02:00"`, `"2025-06-01T12:00:00.5Z"`, `"2025-06-01 12:00:00"`}[rng.IntN(3)])
	case kBool:
		return []byte(`false`)
	}
	return []byte(`null`)
}
