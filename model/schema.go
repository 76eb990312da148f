package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// maxSchemaDepth is how deeply an input schema may nest before it is
// flagged: deeper than any argument a person or a model would fill in,
// and a cost to every client that walks it.
const maxSchemaDepth = 32

// maxDecodeDepth is the deepest nesting encoding/json accepts.
const maxDecodeDepth = 10000

// SchemaProblem says what is wrong with a tool's inputSchema as MCP defines
// it (a JSON Schema object whose "type" is "object"), or returns "" when
// nothing is or when there is no schema at all. A tool whose schema has a
// problem can still be called: the argument editor starts from {}.
func SchemaProblem(schema json.RawMessage) string {
	raw := bytes.TrimSpace(schema)
	if len(raw) == 0 {
		return ""
	}
	depth, err := jsonDepth(raw)
	if err != nil {
		return "inputSchema is not valid JSON"
	}
	if raw[0] != '{' {
		return fmt.Sprintf("inputSchema is %s, not an object", JSONKind(raw))
	}
	// Past encoding/json's nesting limit the member is not looked up, as
	// decoding the object to find it would fail.
	if depth <= maxDecodeDepth {
		switch t := member(raw, "type"); {
		case len(t) == 0:
			return `inputSchema has no "type"; MCP requires "object"`
		case t[0] != '"':
			return fmt.Sprintf(`inputSchema "type" is %s, not "object"`, JSONKind(t))
		case string(t) != `"object"`:
			return fmt.Sprintf(`inputSchema "type" is %s, not "object"`, Sanitize(string(t)))
		}
	}
	if depth > maxSchemaDepth {
		return fmt.Sprintf("inputSchema nests %d levels deep (flagged beyond %d)", depth, maxSchemaDepth)
	}
	return ""
}

// maxSpelled bounds the hidden messages one schema finding spells out: a
// schema can hold thousands of strings, and the evidence is one line.
const maxSpelled = 4

// schemaFindings reports a row's input schema: a SchemaProblem, and text in
// it (descriptions, titles, property names) that hides or acts.
func schemaFindings(ci, row int, server, tool string, subject func() string, schema json.RawMessage) []finding {
	var fs []finding
	if p := SchemaProblem(schema); p != "" {
		fs = append(fs, finding{Finding{Warn, "schema", server, tool,
			fmt.Sprintf("%s on %s: %s", subject(), server, p)}, ci, row})
	}
	if plainJSON(schema) {
		return fs // no string in it can hold a character scanText reports
	}
	hits := map[string]*textHit{}
	var order []string
	dec := json.NewDecoder(bytes.NewReader(schema))
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		s, ok := tok.(string)
		if !ok {
			continue
		}
		for _, h := range scanText(s, true) {
			if seen := hits[h.kind]; seen != nil {
				seen.n += h.n
				seen.spelled = append(seen.spelled, h.spelled...)
				seen.spelled = seen.spelled[:min(len(seen.spelled), maxSpelled)] // evidence stays a line
				continue
			}
			h := h
			hits[h.kind] = &h
			order = append(order, h.kind)
		}
	}
	for _, kind := range order {
		h := hits[kind]
		sev := Warn
		if len(h.spelled) > 0 {
			sev = Fail // a message hidden in the schema reaches the model as surely as one in the description
		}
		fs = append(fs, finding{Finding{sev, h.kind, server, tool,
			fmt.Sprintf("input schema of %s on %s %s", subject(), server, h)}, ci, row})
	}
	return fs
}

// jsonDepth returns how deeply raw nests, or an error when it is not one
// valid JSON value. It does not recurse, so any depth is safe to measure.
// Once raw is known to be valid, its brackets outside strings are counted
// byte by byte: walking it token by token took most of the findings view's
// time on a large surface.
func jsonDepth(raw []byte) (int, error) {
	if !json.Valid(raw) {
		return deepDepth(raw)
	}
	deepest, _, _ := countBrackets(raw)
	return deepest, nil
}

// plainJSON reports whether every string in the JSON text raw, once
// decoded, is printable ASCII, tab or a line break: raw is printable ASCII
// and whitespace, and escapes only quotes, slashes and \n, \r, \t. Such text
// holds nothing scanText reports in prose, so it need not be decoded.
func plainJSON(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '\\':
			i++
			if i == len(raw) || !bytes.ContainsRune([]byte(`"\\/nrt`), rune(raw[i])) {
				return false
			}
		case c >= 0x20 && c < 0x7f, c == '\t', c == '\n', c == '\r':
		default:
			return false
		}
	}
	return true
}

// member returns the value of the member key of the valid JSON object raw,
// as decoding raw into a struct with a field tagged key would find it: the
// last member whose name equals key ignoring case; nil when there is none.
// It reads only the object's top level, decoding a member name only when it
// holds an escape.
func member(raw []byte, key string) json.RawMessage {
	var found json.RawMessage
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil
	}
	i = skipSpace(raw, i+1)
	for i < len(raw) && raw[i] == '"' {
		end := valueEnd(raw, i)
		name := raw[i:end]
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return nil
		}
		start := skipSpace(raw, i+1)
		end = valueEnd(raw, start)
		if strings.EqualFold(memberName(name), key) {
			found = raw[start:end]
		}
		i = skipSpace(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return found
}

// memberName decodes a quoted member name.
func memberName(quoted []byte) string {
	if !bytes.ContainsRune(quoted, '\\') {
		return string(quoted[1 : len(quoted)-1])
	}
	var s string
	_ = json.Unmarshal(quoted, &s)
	return s
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the end of the valid JSON value starting at raw[i].
func valueEnd(raw []byte, i int) int {
	if i >= len(raw) {
		return i
	}
	switch raw[i] {
	case '"':
		for j := i + 1; j < len(raw); j++ {
			switch raw[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return len(raw)
	case '{', '[':
		end, _, _, _ := walkBrackets(raw, i, true)
		return end
	}
	j := i
	for j < len(raw) && raw[j] != ',' && raw[j] != '}' && raw[j] != ']' &&
		raw[j] != ' ' && raw[j] != '\t' && raw[j] != '\n' && raw[j] != '\r' {
		j++
	}
	return j
}

// deepDepth tells a value too deep for encoding/json (which refuses
// nesting beyond 10000 levels) from one that is invalid: it counts
// brackets outside strings and checks they balance.
func deepDepth(raw []byte) (int, error) {
	deepest, balanced, closed := countBrackets(raw)
	if !balanced || !closed || deepest <= 10000 {
		return 0, errors.New("invalid JSON")
	}
	return deepest, nil
}

// countBrackets counts the nesting of the brackets outside strings in raw:
// the deepest level, whether they balance, and whether every string ends.
func countBrackets(raw []byte) (deepest int, balanced, closed bool) {
	_, deepest, balanced, closed = walkBrackets(raw, 0, false)
	return deepest, balanced, closed
}

// walkBrackets walks raw from i, counting brackets outside strings. With
// untilClosed it stops after the bracket that closes the one at raw[i],
// returning the end; otherwise it walks all of raw. It reports the deepest
// level, whether the brackets balance and whether every string ends.
func walkBrackets(raw []byte, i int, untilClosed bool) (end, deepest int, balanced, closed bool) {
	depth, inString, escaped := 0, false, false
	for j := i; j < len(raw); j++ {
		c := raw[j]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
			switch {
			case depth < 0:
				return j + 1, deepest, false, !inString
			case depth == 0 && untilClosed:
				return j + 1, deepest, true, true
			}
		}
	}
	return len(raw), deepest, depth == 0, !inString
}

// JSONKind names the JSON type of a valid value for a message: "an
// object", "an array", "a string", "a boolean", "null" or "a number".
func JSONKind(raw []byte) string {
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
