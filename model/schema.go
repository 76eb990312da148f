package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	depth, err := jsonDepth(raw)
	if err != nil {
		return "inputSchema is not valid JSON"
	}
	if raw[0] != '{' {
		return fmt.Sprintf("inputSchema is %s, not an object", valueKind(raw))
	}
	var top struct {
		Type json.RawMessage `json:"type"`
	}
	if json.Unmarshal(raw, &top) == nil {
		switch t := bytes.TrimSpace(top.Type); {
		case len(t) == 0:
			return `inputSchema has no "type"; MCP requires "object"`
		case t[0] != '"':
			return fmt.Sprintf(`inputSchema "type" is %s, not "object"`, valueKind(t))
		case string(t) != `"object"`:
			return fmt.Sprintf(`inputSchema "type" is %s, not "object"`, Sanitize(string(t)))
		}
	}
	if depth > maxSchemaDepth {
		return fmt.Sprintf("inputSchema nests %d levels deep (flagged beyond %d)", depth, maxSchemaDepth)
	}
	return ""
}

// schemaFindings reports a row's input schema: a SchemaProblem, and text in
// it (descriptions, titles, property names) that hides or acts.
func schemaFindings(ci, row int, server, tool, subject string, schema json.RawMessage) []finding {
	var fs []finding
	if p := SchemaProblem(schema); p != "" {
		fs = append(fs, finding{Finding{Warn, "schema", server, tool,
			fmt.Sprintf("%s on %s: %s", subject, server, p)}, ci, row})
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
				continue
			}
			h := h
			hits[h.kind] = &h
			order = append(order, h.kind)
		}
	}
	for _, kind := range order {
		h := hits[kind]
		fs = append(fs, finding{Finding{Warn, h.kind, server, tool,
			fmt.Sprintf("input schema of %s on %s %s", subject, server, h)}, ci, row})
	}
	return fs
}

// jsonDepth returns how deeply raw nests, or an error when it is not one
// valid JSON value. It does not recurse, so any depth is safe to measure.
func jsonDepth(raw []byte) (int, error) {
	if !json.Valid(raw) {
		return deepDepth(raw)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	depth, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return deepest, nil
		}
		if err != nil {
			return 0, err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			deepest = max(deepest, depth)
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

// deepDepth tells a value too deep for encoding/json (which refuses
// nesting beyond 10000 levels) from one that is invalid: it counts
// brackets outside strings and checks they balance.
func deepDepth(raw []byte) (int, error) {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range raw {
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
			if depth < 0 {
				return 0, errors.New("unbalanced")
			}
		}
	}
	if depth != 0 || inString || deepest <= 10000 {
		return 0, errors.New("invalid JSON")
	}
	return deepest, nil
}

// valueKind names the JSON type of a valid value for a message.
func valueKind(raw []byte) string {
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
