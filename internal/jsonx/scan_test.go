package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// The scans must say what decoding with encoding/json says.

var samples = []string{
	`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x","arguments":{"id":"inner","method":"no"}}}`,
	` { "id" : 12 , "result" : { "content" : [ { "type" : "text" , "text" : "a \"quoted\" } ]" } ] , "isError" : true } } `,
	`{"ID":5,"method":"ping"}`,
	`{"i\u0064":5}`,
	`{"id":1,"id":2}`,
	`{"type":"object"}`,
	`{"type" : "object" , "properties":{"type":{"type":"string"}}}`,
	`{"TYPE":"object"}`,
	`{"Type":"string","type":"object"}`,
	`{"typ\u0065":"object"}`,
	`{"ty\"pe":"object"}`,
	`{"a":"}","type":"object"}`,
	`{"a":"\\","type":"object"}`,
	`{"a":[1,{"b":"]"}],"type":true}`,
	`{"a":"\\\\\"}\\\\","type":"x\\"}`,
	"{\"\xff\":1,\"\xfe\":2}",
	`{"description":"line\nbreak\ttab \/ \"quoted\" \\u200b"}`,
	`{"description":"zero\u200bwidth","x":1e5,"y":-0.5,"z":false}`,
	`[{"type":"object"}, 1, "two", [3], null]`,
	`[]`,
	`{}`,
	`"string"`,
	`7`,
	`{"type":"object","tYpe":"array"}`,
	`{"type":null,"t":["object","null"]}`,
	`{"description":"bell\u0007 backspace\b form\f del` + "\x7f" + ` raw` + "\u202e" + `bidi"}`,
}

// decoded is what encoding/json reads of a member into a struct field.
func decoded(raw []byte, key string) (json.RawMessage, bool) {
	field := reflect.StructField{Name: "V", Type: reflect.TypeFor[json.RawMessage](), Tag: reflect.StructTag(`json:"` + key + `"`)}
	v := reflect.New(reflect.StructOf([]reflect.StructField{field}))
	if json.Unmarshal(raw, v.Interface()) != nil {
		return nil, false
	}
	return bytes.TrimSpace(v.Elem().Field(0).Bytes()), true
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

// tokenStrings reports whether every string of raw, decoded by the
// tokenizer, is printable ASCII, tab or a line break.
func tokenStringsPlain(raw []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		tok, err := dec.Token()
		if err != nil {
			return true
		}
		s, ok := tok.(string)
		if !ok {
			continue
		}
		for _, r := range s {
			if (r < 0x20 || r >= 0x7f) && r != '\t' && r != '\n' && r != '\r' {
				return false
			}
		}
	}
}

// orderedFields reads an object's members with the tokenizer, keeping the
// first position and last value of a repeated name.
func orderedFields(raw []byte) ([]Field, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.Token() // '{'
	var out []Field
	seen := map[string]bool{}
	for dec.More() {
		tok, _ := dec.Token()
		name := tok.(string)
		var skip json.RawMessage
		_ = dec.Decode(&skip)
		if !seen[name] {
			seen[name] = true
			out = append(out, Field{Name: name})
		}
	}
	for i := range out {
		out[i].Value = m[out[i].Name]
	}
	return out, true
}

func checkScans(t *testing.T, raw []byte) {
	if Plain(raw) && !tokenStringsPlain(raw) {
		t.Errorf("Plain(%q) = true, but a string in it is not printable ASCII", raw)
	}
	if !json.Valid(raw) {
		return
	}
	if got, err := Depth(raw); err != nil || got != tokenDepth(raw) {
		t.Errorf("Depth(%q) = %d, %v; want %d", raw, got, err, tokenDepth(raw))
	}
	for _, key := range []string{"id", "type", "result"} {
		want, ok := decoded(raw, key)
		if !ok {
			continue
		}
		if got := bytes.TrimSpace(MemberFold(raw, key)); !bytes.Equal(got, want) {
			t.Errorf("MemberFold(%q, %q) = %q, want %q", raw, key, got, want)
		}
		var v [1][]byte
		if Members(raw, []string{key}, v[:]) && !bytes.Equal(v[0], want) {
			t.Errorf("Members(%q, %q) = %q, want %q", raw, key, v[0], want)
		}
	}
	want, wantOK := orderedFields(raw)
	got, ok := Fields(raw)
	if ok != wantOK || len(got) != len(want) {
		t.Errorf("Fields(%q) = %q, %v; want %q, %v", raw, got, ok, want, wantOK)
	} else {
		for i := range got {
			if got[i].Name != want[i].Name || !bytes.Equal(got[i].Value, want[i].Value) {
				t.Errorf("Fields(%q)[%d] = %q, want %q", raw, i, got[i], want[i])
			}
		}
	}
	var elems []json.RawMessage
	wantElems := json.Unmarshal(raw, &elems) == nil && elems != nil
	if gotElems, ok := Elements(raw); ok != wantElems || len(gotElems) != len(elems) {
		t.Errorf("Elements(%q) = %q, %v; want %q", raw, gotElems, ok, elems)
	} else {
		for i := range gotElems {
			if !bytes.Equal(gotElems[i], elems[i]) {
				t.Errorf("Elements(%q)[%d] = %s, want %s", raw, i, gotElems[i], elems[i])
			}
		}
	}
}

func TestScansMatchDecoding(t *testing.T) {
	for _, s := range samples {
		checkScans(t, []byte(s))
	}
}

func FuzzScans(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Fuzz(checkScans)
}

func TestMembersDeclinesWhatDecodingWouldMatch(t *testing.T) {
	for _, s := range []string{`{"ID":5}`, `{"i\u0064":5}`, `[1]`, `"id"`} {
		var v [1][]byte
		if Members([]byte(s), []string{"id"}, v[:]) {
			t.Errorf("Members(%s, id) = true, want false", s)
		}
	}
	var v [2][]byte
	if !Members([]byte(`{"id":1,"result":{"id":2},"id":3}`), []string{"id", "method"}, v[:]) ||
		string(v[0]) != "3" || v[1] != nil {
		t.Errorf("Members = %q, want 3 and nil", v)
	}
}

func TestDepthBeyondTheDecodeLimit(t *testing.T) {
	deep := strings.Repeat("[", DecodeLimit+1) + strings.Repeat("]", DecodeLimit+1)
	if d, err := Depth([]byte(deep)); err != nil || d != DecodeLimit+1 {
		t.Errorf("Depth of %d nested arrays = %d, %v", DecodeLimit+1, d, err)
	}
	for _, bad := range []string{`{`, `[1,]`, strings.Repeat("[", DecodeLimit+1), `{"a":"}`,
		strings.Repeat("[", DecodeLimit+1) + "x" + strings.Repeat("]", DecodeLimit+1), deep + " []"} {
		if _, err := Depth([]byte(bad)); err == nil {
			t.Errorf("Depth(%.20q) succeeded, want an error", bad)
		}
	}
}
