package mcp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"fiplan/data/history"
	"fiplan/handlers/buildinfo"
)

// Reproducible results. Every calculation a tool answers carries what it
// takes to compute it again and to tell whether two answers came from the
// same thing:
//
//   - engine: the build that computed it, as fiplan -version names it;
//   - datasets: each embedded dataset the engine draws on, by name, with
//     its version or as-of date (tax/CC: the newest date of the country's
//     official documents);
//   - seed: the Monte Carlo seed, when a simulation ran;
//   - inputHash: the first 16 bytes, in hex, of the SHA-256 of the
//     canonical input: the arguments (keys sorted, no spaces, numbers in
//     their shortest form) without those that only shape the answer
//     (output, detail), with a saved plan's stored input, and with the
//     calendar year when the figures depend on it (a plan without
//     startYear, a check-in). The same input gives the same hash and,
//     with the same engine and datasets, the same figures.

// provenance is what the handler knows of its own build and data.
type provenance struct {
	engine   string
	datasets map[string]string
	taxAsOf  map[string]string // by country code
}

// newProvenance reads the build and the datasets' versions once.
func newProvenance(version string, d Datasets) provenance {
	p := provenance{engine: "fiplan " + buildinfo.Binary(version).String(), datasets: map[string]string{}, taxAsOf: map[string]string{}}
	if d.Cities != nil {
		m := d.Cities.Meta()
		p.datasets["cities"] = m.Version + " (as of " + m.AsOf + ")"
	}
	if d.FX != nil {
		p.datasets["fx"] = d.FX.AsOf()
	}
	if d.History.Len() > 0 {
		p.datasets["history"] = strconv.Itoa(d.History.First()) + "-" + strconv.Itoa(d.History.Last()) + historyAsOf()
	}
	if d.Taxes != nil {
		latest := ""
		for _, s := range d.Taxes.Countries() {
			asOf := ""
			for _, doc := range s.Documents {
				asOf = max(asOf, doc.AsOf)
			}
			if w := d.Taxes.Wrappers(s.Country); w != nil {
				for _, doc := range w.Documents {
					asOf = max(asOf, doc.AsOf)
				}
			}
			p.taxAsOf[s.Country] = asOf
			latest = max(latest, asOf)
		}
		p.datasets["tax"] = latest
	}
	return p
}

var asOfLine = regexp.MustCompile(`(?m)^As of: ([^(\n]*)`)

// historyAsOf is the return history's as-of statement, " (as of ...)".
func historyAsOf() string {
	m := asOfLine.FindStringSubmatch(history.Provenance())
	if m == nil {
		return ""
	}
	return " (as of " + strings.TrimSpace(m[1]) + ")"
}

// canonicalArgs is the arguments as one JSON object.
func canonicalArgs(args map[string]json.RawMessage) []byte {
	b, err := json.Marshal(args)
	if err != nil {
		return nil // the body would not encode either: the route answers
	}
	return b
}

// canonical is raw JSON with object keys sorted, no spaces and every
// number in its shortest form.
func canonical(raw []byte) ([]byte, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return []byte("null"), nil
	}
	dec := stdjson.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	v, err := shortNumbers(v)
	if err != nil {
		return nil, err
	}
	return stdjson.Marshal(v) // sorts the keys of every map
}

func shortNumbers(v any) (any, error) {
	var err error
	switch x := v.(type) {
	case stdjson.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return nil, err
		}
		return stdjson.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
	case map[string]any:
		for k, e := range x {
			if x[k], err = shortNumbers(e); err != nil {
				return nil, err
			}
		}
	case []any:
		for i, e := range x {
			if x[i], err = shortNumbers(e); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// hashOf is the input hash of a canonical input.
func hashOf(v map[string]json.RawMessage) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	c, err := canonical(raw)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:16]), nil
}

// inputOf is the plan input a calculation ran: the arguments, or a saved
// plan's stored input.
type inputOf struct {
	StartYear  *int                   `json:"startYear"`
	MonteCarlo *struct{ Seed *int64 } `json:"monteCarlo"`
	Tax        *struct {
		Country string `json:"country"`
	} `json:"tax"`
	Country string `json:"country"`
}

var errNoPlan = errors.New("the saved plan could not be read")

// withProvenance adds engine, datasets, seed and inputHash to a
// calculation's answer.
func (h *Handler) withProvenance(t *tool, r *request, out []byte) ([]byte, error) {
	hashed := map[string]json.RawMessage{"args": r.input}
	plan := r.input
	if t.stored {
		stored, err := h.storedInput(r)
		if err != nil {
			return nil, err
		}
		hashed["plan"], plan = stored, stored
	}
	var in inputOf
	if err := json.Unmarshal(plan, &in); err != nil {
		return nil, fmt.Errorf("cannot read the input: %w", err)
	}
	if t.projections && in.StartYear == nil || t.stored && !t.projections {
		hashed["year"] = json.RawMessage(strconv.Itoa(h.now().Year()))
	}
	hash, err := hashOf(hashed)
	if err != nil {
		return nil, fmt.Errorf("cannot hash the input: %w", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, err
	}
	ds := make(map[string]string, len(h.prov.datasets)+1)
	for k, v := range h.prov.datasets {
		ds[k] = v
	}
	cc := in.Country
	if in.Tax != nil {
		cc = in.Tax.Country
	}
	if asOf, ok := h.prov.taxAsOf[strings.ToUpper(cc)]; ok {
		ds["tax/"+strings.ToUpper(cc)] = asOf
	}
	m["engine"], _ = json.Marshal(h.prov.engine)
	m["inputHash"], _ = json.Marshal(hash)
	if m["datasets"], err = json.Marshal(ds); err != nil {
		return nil, err
	}
	if mc := in.MonteCarlo; mc != nil {
		seed := int64(1) // the calculator's default
		if mc.Seed != nil {
			seed = *mc.Seed
		}
		m["seed"] = json.RawMessage(strconv.FormatInt(seed, 10))
	}
	return json.Marshal(m)
}

// storedInput reads the saved plan a call ran, with the call's own
// credentials; the call has paid for it.
func (h *Handler) storedInput(r *request) (json.RawMessage, error) {
	get := request{method: "GET", uri: "/api/v1/plans/" + r.id, authorization: r.authorization, forwardedFor: r.forwardedFor,
		traceparent: r.traceparent, peer: r.peer, prepaid: true}
	status, body := h.run(&get)
	var env struct {
		Data struct {
			Input json.RawMessage `json:"input"`
		} `json:"data"`
	}
	if status != 200 || json.Unmarshal(body, &env) != nil || len(env.Data.Input) == 0 {
		return nil, errNoPlan
	}
	return env.Data.Input, nil
}

// provenanceSchema declares the provenance fields in an output schema;
// the tools' descriptions and the server's instructions say what they mean.
func provenanceSchema(out map[string]any) {
	props := out["properties"].(map[string]any)
	props["engine"] = map[string]any{"type": "string"}
	props["datasets"] = map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}}
	props["seed"] = map[string]any{"type": "integer"}
	props["inputHash"] = map[string]any{"type": "string", "pattern": "^[0-9a-f]{32}$"}
	req, _ := out["required"].([]any)
	out["required"] = append(req, "engine", "datasets", "inputHash")
}
