package config

import (
	"bytes"
	"fmt"
)

// maxDepth bounds how deeply a config's objects, arrays and tables nest.
// The parsers underneath recurse once per level (hujson has no bound at
// all: a million levels overflow the stack, which no recover catches), and
// no client's config needs more than a dozen.
const maxDepth = 512

// depthError says where a document nests past maxDepth.
func (d *doc) depthError(off int) *Error {
	return d.errorAt(off, fmt.Sprintf("nested more than %d levels deep; no MCP client config nests that deep", maxDepth))
}

// jsonTooDeep returns the offset of the first '[' or '{' of a JSON or JSONC
// text that opens level maxDepth+1, skipping strings and comments, or -1.
// It runs before any parser sees the text, so none of them recurses past
// maxDepth. A text that is not JSON is scanned all the same: wherever this
// scan is unsure, the parser stops at a syntax error before it gets there.
func jsonTooDeep(text []byte) int {
	depth := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '/':
			if i+1 < len(text) && text[i+1] == '/' {
				i = skipLine(text, i)
			} else if i+1 < len(text) && text[i+1] == '*' {
				end := bytes.Index(text[i+2:], []byte("*/"))
				if end < 0 {
					return -1
				}
				i += 2 + end + 1
			}
		case '[', '{':
			if depth++; depth > maxDepth {
				return i
			}
		case ']', '}':
			depth = max(0, depth-1)
		}
	}
	return -1
}

// tomlTooDeep is jsonTooDeep for TOML: arrays and inline tables, skipping
// its four kinds of string and its comments. Keys nest too (a.b.c = 1,
// [a.b.c]); parseTOML counts those as it builds the tree.
func tomlTooDeep(text []byte) int {
	depth := 1 // the document is a table
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '"', '\'':
			if bytes.HasPrefix(text[i:], []byte{c, c, c}) {
				end := bytes.Index(text[i+3:], []byte{c, c, c})
				if c == '"' {
					end = closingTripleQuote(text[i+3:])
				}
				if end < 0 {
					return -1
				}
				i += 3 + end + 2
				continue
			}
			for i++; i < len(text) && text[i] != c && text[i] != '\n'; i++ {
				if c == '"' && text[i] == '\\' {
					i++
				}
			}
		case '#':
			i = skipLine(text, i)
		case '[', '{':
			if depth++; depth > maxDepth {
				return i
			}
		case ']', '}':
			depth = max(1, depth-1)
		}
	}
	return -1
}

// closingTripleQuote returns the offset of the """ that ends a multi-line
// basic string whose body starts text, or -1; a backslash escapes the
// character after it.
func closingTripleQuote(text []byte) int {
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == '\\':
			i++
		case bytes.HasPrefix(text[i:], []byte(`"""`)):
			return i
		}
	}
	return -1
}

// skipLine returns the offset of the newline ending the line that holds
// offset i, or the last offset of text.
func skipLine(text []byte, i int) int {
	if nl := bytes.IndexByte(text[i:], '\n'); nl >= 0 {
		return i + nl
	}
	return len(text) - 1
}
