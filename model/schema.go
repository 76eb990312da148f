package model

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcplens/mcplens/internal/jsonx"
)

// maxSchemaDepth is how deeply an input schema may nest before it is
// flagged: deeper than any argument a person or a model would fill in,
// and a cost to every client that walks it.
const maxSchemaDepth = 32

// SchemaProblem says what is wrong with a tool's inputSchema as MCP defines
// it (a JSON Schema object whose "type" is "object"), or returns "" when
// nothing is or when there is no schema at all. A tool whose schema has a
// problem can still be called: the argument editor starts from {}.
func SchemaProblem(schema json.RawMessage) string {
	raw := bytes.TrimSpace(schema)
	if len(raw) == 0 {
		return ""
	}
	depth, err := jsonx.Depth(raw)
	if err != nil {
		return "inputSchema is not valid JSON"
	}
	if raw[0] != '{' {
		return fmt.Sprintf("inputSchema is %s, not an object", JSONKind(raw))
	}
	// Past encoding/json's nesting limit the member is not looked up, as
	// decoding the object to find it would fail.
	if depth <= jsonx.DecodeLimit {
		switch t := jsonx.MemberFold(raw, "type"); {
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
	if jsonx.Plain(schema) {
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
