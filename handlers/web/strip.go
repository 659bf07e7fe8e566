package web

import (
	"bytes"
	"path"
)

// strip is the web app's build step, run once at start: it drops what a
// browser never reads from a script or style sheet, so the sources keep
// their comments and the page its weight budget. A script loses its
// whole-line comments and every line's indentation, each dropped line kept
// as an empty one so an error's line number is the source's; a style sheet
// loses its comments and indentation. Code is never rewritten: a comment
// sharing its line with code (a type cast) stays.
func strip(name string, b []byte) []byte {
	switch path.Ext(name) {
	case ".js":
		return stripScript(b)
	case ".css":
		return stripStyle(b)
	}
	return b
}

func stripScript(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inBlock := false
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		nl := bytes.HasSuffix(line, []byte("\n"))
		code := bytes.TrimSpace(line)
		drop := false
		switch {
		case inBlock:
			drop = true
			if bytes.Contains(code, []byte("*/")) {
				inBlock = false
				// Code after a block comment's end stays.
				drop = bytes.HasSuffix(code, []byte("*/"))
				if !drop {
					out = append(out, line...)
					continue
				}
			}
		case bytes.HasPrefix(code, []byte("//")):
			drop = true
		case bytes.HasPrefix(code, []byte("/*")):
			end := bytes.Index(code[2:], []byte("*/"))
			if end < 0 {
				inBlock, drop = true, true
			} else {
				drop = end+4 == len(code)
			}
		}
		if !drop {
			out = append(out, code...)
		}
		if nl {
			out = append(out, '\n')
		}
	}
	return out
}

func stripStyle(b []byte) []byte {
	var out []byte
	for {
		i := bytes.Index(b, []byte("/*"))
		if i < 0 {
			out = append(out, b...)
			break
		}
		out = append(out, b[:i]...)
		j := bytes.Index(b[i+2:], []byte("*/"))
		if j < 0 {
			break
		}
		b = b[i+2+j+2:]
	}
	var res []byte
	for _, line := range bytes.Split(out, []byte("\n")) {
		if l := bytes.TrimSpace(line); len(l) > 0 {
			res = append(res, l...)
			res = append(res, '\n')
		}
	}
	return res
}
