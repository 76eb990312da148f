package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
)

// The schema checks read JSON byte by byte rather than token by token, for
// speed. These tests hold them to what encoding/json says about the same
// bytes.

// decodedType is the "type" member as encoding/json decodes it into a
// struct, and whether decoding succeeded.
func decodedType(raw []byte) (json.RawMessage, bool) {
	var top struct {
		Type json.RawMessage `json:"type"`
	}
	if json.Unmarshal(raw, &top) != nil {
		return nil, false
	}
	return bytes.TrimSpace(top.Type), true
}

// tokenDepth measures nesting with the JSON tokenizer.
func tokenDepth(raw []byte) int {
	dec := json.NewDecoder(bytes.NewReader(raw))
	depth, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) || err != nil {
			return deepest
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

// tokenHits reports whether scanText finds anything in any string of raw,
// decoded by the tokenizer.
func tokenHits(raw []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if s, ok := tok.(string); ok && len(scanText(s, true)) > 0 {
			return true
		}
	}
}

var schemaSamples = []string{
	`{"type":"object"}`,
	`{"type" : "object" , "properties":{"type":{"type":"string"}}}`,
	` { "properties" : { } , "type":"string" } `,
	`{"type":5}`,
	`{"type":null}`,
	`{"type":["object","null"]}`,
	`{"type":{"nested":"object"}}`,
	`{"TYPE":"object"}`,
	`{"Type":"string","type":"object"}`,
	`{"type":"object","tYpe":"array"}`,
	`{"typ\u0065":"object"}`,
	`{"ty\"pe":"object"}`,
	`{"a":"}","type":"object"}`,
	`{"a":"\\","type":"object"}`,
	`{"a":[1,{"b":"]"}],"type":true}`,
	`{}`,
	`{"description":"line\nbreak\ttab \/ \"quoted\" \\u200b"}`,
	`{"description":"bell\u0007"}`,
	`{"description":"zero\u200bwidth"}`,
	`{"description":"raw` + "\u202e" + `bidi"}`,
	`{"description":"del` + "\x7f" + `"}`,
	`{"description":"backspace\b form\f"}`,
	`{"x":1e5,"y":-0.5,"z":false}`,
	`[{"type":"object"}]`,
}

func TestMemberMatchesDecoding(t *testing.T) {
	for _, s := range schemaSamples {
		raw := []byte(s)
		want, ok := decodedType(raw)
		if !ok || raw[bytes.IndexAny(raw, "{[")] != '{' {
			continue
		}
		if got := member(bytes.TrimSpace(raw), "type"); !bytes.Equal(got, want) {
			t.Errorf("member(%q, type) = %q, want %q", s, got, want)
		}
	}
}

func TestJSONDepthMatchesTokens(t *testing.T) {
	for _, s := range schemaSamples {
		got, err := jsonDepth([]byte(s))
		if err != nil {
			t.Errorf("jsonDepth(%q): %v", s, err)
			continue
		}
		if want := tokenDepth([]byte(s)); got != want {
			t.Errorf("jsonDepth(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestPlainJSONHidesNothing(t *testing.T) {
	for _, s := range schemaSamples {
		if plainJSON([]byte(s)) && tokenHits([]byte(s)) {
			t.Errorf("plainJSON(%q) = true, but a string in it holds a reported character", s)
		}
	}
}

func FuzzSchemaScan(f *testing.F) {
	for _, s := range schemaSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if plainJSON(raw) && tokenHits(raw) {
			t.Errorf("plainJSON(%q) = true, but a string in it holds a reported character", raw)
		}
		if !json.Valid(raw) {
			return
		}
		if got, err := jsonDepth(raw); err != nil || got != tokenDepth(raw) {
			t.Errorf("jsonDepth(%q) = %d, %v; want %d", raw, got, err, tokenDepth(raw))
		}
		trimmed := bytes.TrimSpace(raw)
		if trimmed[0] != '{' {
			return
		}
		if want, ok := decodedType(raw); ok {
			if got := member(trimmed, "type"); !bytes.Equal(got, want) {
				t.Errorf("member(%q, type) = %q, want %q", raw, got, want)
			}
		}
	})
}
