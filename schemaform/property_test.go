package schemaform_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/argcheck"
	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/schemaform"
)

// A node is a generated schema, written as JSON by schema and given
// conforming (and sometimes non-conforming) values by value.
type node struct {
	typ      string // string number integer boolean enum object array
	props    []string
	children []*node
	required []bool
	items    *node
	enum     []string
	def      string // a default as JSON, or ""
}

func gen(r *rand.Rand, depth int) *node {
	kinds := []string{"string", "number", "integer", "boolean", "enum"}
	if depth < 3 {
		kinds = append(kinds, "object", "array")
	}
	n := &node{typ: kinds[r.IntN(len(kinds))]}
	switch n.typ {
	case "object":
		for i := range r.IntN(4) {
			n.props = append(n.props, fmt.Sprintf("p%d%s", i, []string{"", "/x", "~y", " é"}[r.IntN(4)]))
			n.children = append(n.children, gen(r, depth+1))
			n.required = append(n.required, r.IntN(2) == 0)
		}
	case "array":
		n.items = gen(r, depth+1)
	case "enum":
		for i := range 1 + r.IntN(3) {
			n.enum = append(n.enum, strconv.Quote(fmt.Sprintf("v%d", i)))
		}
		if r.IntN(3) == 0 {
			n.enum = append(n.enum, "7")
		}
	}
	if r.IntN(4) == 0 && n.typ != "object" && n.typ != "array" {
		n.def = n.value(r, false)
	}
	return n
}

func (n *node) schema() string {
	var b strings.Builder
	b.WriteString("{")
	switch n.typ {
	case "enum":
		b.WriteString(`"enum":[` + strings.Join(n.enum, ",") + "]")
	default:
		b.WriteString(`"type":"` + n.typ + `"`)
	}
	if n.typ == "object" {
		b.WriteString(`,"properties":{`)
		var req []string
		for i, p := range n.props {
			if i > 0 {
				b.WriteString(",")
			}
			q, _ := json.Marshal(p)
			b.WriteString(string(q) + ":" + n.children[i].schema())
			if n.required[i] {
				req = append(req, string(q))
			}
		}
		b.WriteString("}")
		if len(req) > 0 {
			b.WriteString(`,"required":[` + strings.Join(req, ",") + "]")
		}
	}
	if n.items != nil {
		b.WriteString(`,"items":` + n.items.schema())
	}
	if n.def != "" {
		b.WriteString(`,"default":` + n.def)
	}
	b.WriteString(`,"description":"d"}`)
	return b.String()
}

// value is a value for the node; wild sometimes gives one of another
// type, or an extra member, as a person typing JSON may.
func (n *node) value(r *rand.Rand, wild bool) string {
	if wild && r.IntN(12) == 0 {
		return []string{`null`, `"x"`, `[1,{"a":null}]`, `{"k":1}`, `-0.5e2`, `true`}[r.IntN(6)]
	}
	switch n.typ {
	case "string":
		return strconv.Quote([]string{"", "a b", "\u202e<&>", "line\nbreak", "日本"}[r.IntN(5)])
	case "number":
		return []string{"0", "1.5", "-3", "1e3", "12345678901234567890"}[r.IntN(5)]
	case "integer":
		return []string{"0", "7", "-12"}[r.IntN(3)]
	case "boolean":
		return []string{"true", "false"}[r.IntN(2)]
	case "enum":
		return n.enum[r.IntN(len(n.enum))]
	case "array":
		var items []string
		for range r.IntN(3) {
			items = append(items, n.items.value(r, wild))
		}
		return "[" + strings.Join(items, ",") + "]"
	}
	var members []string
	for i, p := range n.props {
		if n.required[i] || r.IntN(2) == 0 {
			q, _ := json.Marshal(p)
			members = append(members, string(q)+":"+n.children[i].value(r, wild))
		}
	}
	if wild && r.IntN(4) == 0 {
		members = append(members, `"extra":{"kept":[1,2]}`)
	}
	return "{" + strings.Join(members, ",") + "}"
}

func canonical(t *testing.T, v []byte) string {
	t.Helper()
	c, err := jsonx.Canonical(v)
	if err != nil {
		t.Fatalf("%s is not JSON: %v", v, err)
	}
	return string(c)
}

// TestFormEqualsJSON is the property the two modes of the argument editor
// rest on: for any schema and any input, the form given the input sends
// what the JSON mode sends for the same input, and switching modes loses
// nothing.
func TestFormEqualsJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		root := gen(r, 0)
		root.typ = "object"
		if len(root.props) == 0 {
			root.props, root.children, root.required = []string{"only"}, []*node{gen(r, 1)}, []bool{true}
		}
		root.def = ""
		schema := json.RawMessage(root.schema())
		input := root.value(r, true)
		for input[0] != '{' { // arguments are an object
			input = root.value(r, true)
		}

		// The JSON mode sends the text typed, as JSON.
		jsonMode, err := argcheck.Validate(nil, json.RawMessage(input))
		if err != nil || jsonMode != nil {
			t.Fatalf("case %d: the generated input %s is not JSON: %v", i, input, err)
		}
		form := schemaform.New(schema, true)
		if err := form.Fill(json.RawMessage(input)); err != nil {
			t.Fatalf("case %d: Fill(%s) = %v\nschema %s", i, input, err, schema)
		}
		got, err := form.Value()
		if err != nil {
			t.Fatalf("case %d: Value after Fill(%s) = %v\nschema %s", i, input, err, schema)
		}
		if canonical(t, got) != canonical(t, []byte(input)) {
			t.Fatalf("case %d: the form sends %s, the JSON mode %s\nschema %s", i, got, input, schema)
		}
		// JSON mode → form → JSON mode: the text shown means the input.
		text := schemaform.Format(form.Value())
		if canonical(t, []byte(text)) != canonical(t, []byte(input)) {
			t.Fatalf("case %d: the JSON mode shows %s for %s", i, text, input)
		}
		if bytes.ContainsRune([]byte(text), '\u202e') {
			t.Fatalf("case %d: the JSON mode shows a bidi override unescaped: %q", i, text)
		}

		// The empty form is the JSON mode's skeleton, and it is valid:
		// required fields have a placeholder of their type, optional ones
		// are left out unless they have a default.
		empty := schemaform.New(schema, true)
		skeleton, err := empty.Value()
		if err != nil {
			t.Fatalf("case %d: the empty form: %v\nschema %s", i, err, schema)
		}
		if ps, err := argcheck.Validate(schema, skeleton); err != nil || len(ps) > 0 {
			t.Fatalf("case %d: skeleton %s fails its schema: %v %v\nschema %s", i, skeleton, ps, err, schema)
		}
	}
}

// A schema with keywords of the wrong type, or none at all, still gives a
// form: what reads is used, the rest left out.
func TestNewToleratesOddSchemas(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"properties":{"a":{"type":"string","title":5,"required":"x"}},"required":["a"]}`, `{"a":""}`},
		{`{"type":"array"}`, `{}`},
		{`true`, `{}`},
		{``, `{}`},
		{`{"properties":{"c":{"const":"fixed"},"n":{"type":["null","integer"]}},"required":["c","n"]}`, `{"c":"fixed","n":0}`},
		{strings.Repeat(`{"properties":{"a":`, 60) + `{}` + strings.Repeat(`}}`, 60), `{}`},
	}
	for _, tt := range tests {
		got, err := schemaform.New(json.RawMessage(tt.schema), true).Value()
		if err != nil || string(got) != tt.want {
			t.Errorf("New(%.60s).Value() = %s, %v; want %s", tt.schema, got, err, tt.want)
		}
	}
}
