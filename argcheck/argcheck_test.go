package argcheck_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/argcheck"
)

const schema = `{"type":"object","properties":{
"a":{"type":"integer"},
"tags":{"type":"array","items":{"type":"string","enum":["x","y"]}},
"deep":{"type":"object","properties":{"n/m":{"type":"number","minimum":1}}}},
"required":["a"]}`

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		args   string
		want   []string // each problem's pointer, then a word of its message
	}{
		{"valid", schema, `{"a":1,"tags":["x"]}`, nil},
		{"wrong type", schema, `{"a":"x"}`, []string{"/a: got string, want integer"}},
		{"missing required", schema, `{}`, []string{"(root): missing property 'a'"}},
		{"enum item", schema, `{"a":1,"tags":["x","z"]}`, []string{"/tags/1: value must be one of"}},
		{"escaped pointer", schema, `{"a":1,"deep":{"n/m":0}}`, []string{"/deep/n~1m: minimum: got 0, want 1"}},
		{"two problems, by pointer", schema, `{"a":true,"tags":[3]}`, []string{"/a: got boolean", "/tags/0: got number"}},
		{"draft-07 by $schema", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"integer"}}}`,
			`{"a":1.5}`, []string{"/a: got number, want integer"}},
		{"draft 4 exclusiveMaximum", `{"$schema":"http://json-schema.org/draft-04/schema#","properties":{"a":{"maximum":3,"exclusiveMaximum":true}}}`,
			`{"a":3}`, []string{"/a: "}},
		{"no schema", ``, `{"anything":1}`, nil},
		{"internal $ref", `{"$defs":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/n"}}}`, `{"a":"x"}`, []string{"/a: got string, want integer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, err := argcheck.Validate([]byte(tt.schema), []byte(tt.args))
			if err != nil {
				t.Fatalf("Validate(%s) error %v", tt.args, err)
			}
			if len(ps) != len(tt.want) {
				t.Fatalf("Validate(%s) = %v, want %d problems %q", tt.args, ps, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(ps[i].String(), w) {
					t.Errorf("Validate(%s) problem %d = %q, want it to start %q", tt.args, i, ps[i], w)
				}
			}
		})
	}
}

// A reference outside the schema is never fetched: not a file, not the
// network.
func TestValidateRefusesOutsideReferences(t *testing.T) {
	for _, ref := range []string{"file:///etc/passwd", "http://127.0.0.1:1/schema.json", "other.json"} {
		_, err := argcheck.Validate([]byte(`{"properties":{"a":{"$ref":"`+ref+`"}}}`), []byte(`{"a":1}`))
		if err == nil || !strings.Contains(err.Error(), "outside the schema") {
			t.Errorf("Validate with $ref %s: error %v, want it refused as outside the schema", ref, err)
		}
	}
}

func TestSyntax(t *testing.T) {
	tests := []struct {
		text      string
		line, col int
		msgPrefix string
	}{
		{"{\n  \"a\": 1,\n  \"b\": x\n}", 3, 8, "invalid character 'x'"},
		{"{\n  \"a\": 1,\n}", 3, 1, "invalid character '}'"},
		{"{\"a\": [1, 2", 1, 12, "unexpected end"},
		{"{} {}", 1, 4, "unexpected data"},
		{"{\"é\": ü}", 1, 7, "invalid character 'ü'"},
	}
	for _, tt := range tests {
		err := argcheck.Syntax([]byte(tt.text))
		var se *argcheck.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Syntax(%q) = %v, want a *SyntaxError", tt.text, err)
			continue
		}
		if se.Line != tt.line || se.Column != tt.col || !strings.HasPrefix(se.Msg, tt.msgPrefix) {
			t.Errorf("Syntax(%q) = %v, want line %d, column %d, %q…", tt.text, se, tt.line, tt.col, tt.msgPrefix)
		}
	}
	if err := argcheck.Syntax([]byte(" {\"a\": [1]}\n")); err != nil {
		t.Errorf("Syntax(valid) = %v", err)
	}
}

func ExampleValidate() {
	schema := []byte(`{"type":"object","properties":{"a":{"type":"integer"}},"required":["a","b"]}`)
	ps, _ := argcheck.Validate(schema, []byte(`{"a":"x"}`))
	for _, p := range ps {
		fmt.Println(p)
	}
	_, err := argcheck.Validate(schema, []byte("{\n  \"a\": 1,\n}"))
	fmt.Println(err)
	// Output:
	// (root): missing property 'b'
	// /a: got string, want integer
	// line 3, column 1: invalid character '}' looking for beginning of object key string
}

// TestValidateFormats: every format the schema library knows is asserted,
// as an MCP client would before sending: a value that is not one is named
// by its pointer and its format; a value that is one passes.
func TestValidateFormats(t *testing.T) {
	for _, tc := range []struct{ format, bad, good string }{
		{"date", "not-a-date", "2026-12-01"},
		{"email", "bad-email", "ada@example.com"},
		{"date-time", "yesterday", "2026-12-01T21:40:00Z"},
		{"time", "25:99", "21:40:00Z"},
		{"uri", "no scheme here", "https://example.com/a"},
		{"ipv4", "300.1.1.1", "127.0.0.1"},
		{"uuid", "not-a-uuid", "0b8f6a4e-2d7c-4b8a-9c1e-3f5a6b7c8d9e"},
		{"hostname", "-bad-.example", "example.com"},
		{"duration", "1 day", "P1D"},
	} {
		s := fmt.Sprintf(`{"type":"object","properties":{"v":{"type":"string","format":%q}}}`, tc.format)
		ps, err := argcheck.Validate([]byte(s), []byte(fmt.Sprintf(`{"v":%q}`, tc.bad)))
		if err != nil || len(ps) != 1 || ps[0].Pointer != "/v" || !strings.Contains(ps[0].String(), tc.format) {
			t.Errorf("format %s, %q: got %v, %v; want one problem at /v naming %s", tc.format, tc.bad, ps, err, tc.format)
		}
		if ps, err := argcheck.Validate([]byte(s), []byte(fmt.Sprintf(`{"v":%q}`, tc.good))); err != nil || len(ps) != 0 {
			t.Errorf("format %s, %q: got %v, %v; want it accepted", tc.format, tc.good, ps, err)
		}
	}
	// A format the library does not know is no assertion: nothing the
	// server could not have meant is refused.
	if ps, err := argcheck.Validate([]byte(`{"properties":{"v":{"format":"x-custom"}}}`), []byte(`{"v":"anything"}`)); err != nil || len(ps) != 0 {
		t.Errorf("an unknown format refused %v, %v", ps, err)
	}
}
