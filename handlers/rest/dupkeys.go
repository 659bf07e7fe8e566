package rest

import (
	"bytes"
	stdjson "encoding/json"
	"strconv"
)

// duplicateKey finds the first member named twice in one object of the
// JSON value raw, at any depth, and returns its path (as the schema's
// details write it: "input.currentAge", "holdings[2].value"); "" when
// there is none or raw is not valid JSON (the decoder says so then).
func duplicateKey(raw []byte) string {
	d := stdjson.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	path, _ := dupIn(d, "")
	return path
}

// dupIn reads one value from d; prefix is its path.
func dupIn(d *stdjson.Decoder, prefix string) (string, bool) {
	tok, err := d.Token()
	if err != nil {
		return "", false
	}
	switch tok {
	case stdjson.Delim('{'):
		seen := map[string]bool{}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return "", false
			}
			name, _ := k.(string)
			p := name
			if prefix != "" {
				p = prefix + "." + name
			}
			if seen[name] {
				return p, true
			}
			seen[name] = true
			if path, stop := dupIn(d, p); stop || path != "" {
				return path, stop
			}
		}
		_, err = d.Token()
		return "", err != nil
	case stdjson.Delim('['):
		for i := 0; d.More(); i++ {
			if path, stop := dupIn(d, prefix+"["+strconv.Itoa(i)+"]"); stop || path != "" {
				return path, stop
			}
		}
		_, err = d.Token()
		return "", err != nil
	}
	return "", false
}
