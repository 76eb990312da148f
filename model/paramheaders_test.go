package model

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestParamHeaders(t *testing.T) {
	prop := func(body string) string { return `{"type":"object","properties":{"p":` + body + `}}` }
	tests := []struct {
		name, schema string
		want         string // the headers as path=Name, or the error's telling part
	}{
		{"none", `{"type":"object","properties":{"a":{"type":"string"}}}`, ""},
		{"not an object", `true`, ""},
		{"string", prop(`{"type":"string","x-mcp-header":"Region"}`), "p=Region"},
		{"integer and boolean", `{"type":"object","properties":{"a":{"type":"integer","x-mcp-header":"A"},"b":{"type":"boolean","x-mcp-header":"B"}}}`, "a=A b=B"},
		{"nested properties", `{"type":"object","properties":{"o":{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"R"}}}}}`, "o.r=R"},
		{"type list of primitives", prop(`{"type":["string","integer"],"x-mcp-header":"P"}`), "p=P"},
		{"escaped keyword", `{"type":"object","properties":{"p":{"type":"object","x\u002dmcp-header":"P"}}}`, "only string, integer and boolean"},
		{"empty", prop(`{"type":"string","x-mcp-header":""}`), "x-mcp-header is empty"},
		{"not a string", prop(`{"type":"string","x-mcp-header":7}`), "must be a string, not a number"},
		{"space", prop(`{"type":"string","x-mcp-header":"My Region"}`), `holds ' '`},
		{"colon", prop(`{"type":"string","x-mcp-header":"Region:"}`), `holds ':'`},
		{"non-ASCII", prop(`{"type":"string","x-mcp-header":"Régión"}`), `holds 'é'`},
		{"CR LF", prop(`{"type":"string","x-mcp-header":"A\r\nX-Evil: 1"}`), `holds '\r'`},
		{"object", prop(`{"type":"object","x-mcp-header":"Data"}`), "type \"object\""},
		{"array", prop(`{"type":"array","items":{"type":"string"},"x-mcp-header":"Items"}`), "type \"array\""},
		{"null", prop(`{"type":"null","x-mcp-header":"Nil"}`), "type \"null\""},
		{"number", prop(`{"type":"number","x-mcp-header":"N"}`), "type \"number\""},
		{"no type", prop(`{"x-mcp-header":"N"}`), "type none declared"},
		{"nullable", prop(`{"type":["string","null"],"x-mcp-header":"N"}`), "only string, integer and boolean"},
		{"duplicate", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"Region"}}}`, `property b: x-mcp-header "Region" repeats "Region"`},
		{"duplicate ignoring case", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"MyField"},"b":{"type":"string","x-mcp-header":"myfield"}}}`, `"myfield" repeats "MyField"`},
		{"duplicate nested", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"R"},"o":{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"r"}}}}}`, "property o.r"},
		{"at the root", `{"type":"string","x-mcp-header":"Root"}`, "the schema's root"},
		{"under items", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}}`, "property l.<items>"},
		{"under prefixItems", `{"type":"object","properties":{"l":{"type":"array","prefixItems":[{"type":"string","x-mcp-header":"L"}]}}}`, "<prefixItems>"},
		{"under oneOf", `{"type":"object","oneOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}`, "<oneOf>.a"},
		{"under $defs", `{"type":"object","$defs":{"d":{"type":"string","x-mcp-header":"D"}},"properties":{"a":{"$ref":"#/$defs/d"}}}`, "<$defs>"},
		{"under additionalProperties", `{"type":"object","additionalProperties":{"type":"string","x-mcp-header":"A"}}`, "<additionalProperties>"},
		{"under if", `{"type":"object","if":{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}}`, "<if>.a"},
		{"under dependentSchemas", `{"type":"object","dependentSchemas":{"a":{"properties":{"b":{"type":"string","x-mcp-header":"B"}}}}}`, "<dependentSchemas>.b"},
		{"a property named like a keyword", `{"type":"object","properties":{"items":{"type":"string","x-mcp-header":"Items"}}}`, "items=Items"},
		{"in a default, not a schema", `{"type":"object","properties":{"a":{"type":"object","default":{"x-mcp-header":"D"}}}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs, err := ParamHeaders(json.RawMessage(tt.schema))
			got := ""
			if err != nil {
				got = err.Error()
				if tt.want == "" || !strings.Contains(got, tt.want) {
					t.Fatalf("ParamHeaders(%s) = error %q, want %q", tt.schema, got, tt.want)
				}
				return
			}
			var parts []string
			for _, h := range hs {
				parts = append(parts, strings.Join(h.Path, ".")+"="+h.Name)
			}
			if got = strings.Join(parts, " "); got != tt.want {
				t.Fatalf("ParamHeaders(%s) = %q, want %q", tt.schema, got, tt.want)
			}
		})
	}
}

// A schema nested past the walk's bound is refused when an annotation
// could hide down there, and passes when none can.
func TestParamHeadersDeep(t *testing.T) {
	deep := func(leaf string) string {
		s := leaf
		for range maxHeaderDepth + 5 {
			s = `{"type":"object","properties":{"n":` + s + `}}`
		}
		return s
	}
	if _, err := ParamHeaders(json.RawMessage(deep(`{"type":"string","x-mcp-header":"Deep"}`))); err == nil || !strings.Contains(err.Error(), "deeper than") {
		t.Fatalf("deep annotation: err = %v, want refused as too deep", err)
	}
	if hs, err := ParamHeaders(json.RawMessage(deep(`{"type":"string"}`))); err != nil || hs != nil {
		t.Fatalf("deep schema without annotation = %v, %v; want nothing", hs, err)
	}
}

// A rejected row is dropped, with the reason, under every policy; it
// claims no name, so it collides with nothing, and is not missing.
func TestRejectedRowUnderEveryPolicy(t *testing.T) {
	bad := Tool{Name: "lookup", NameOK: true, InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"object","x-mcp-header":"A"}}}`)}
	good := Tool{Name: "lookup", NameOK: true, InputSchema: json.RawMessage(`{"type":"object"}`)}
	tools := []Tool{bad}
	MarkRejected(tools, Revision20260728)
	if !strings.HasPrefix(tools[0].Rejected, "rejected for its x-mcp-header: property a:") {
		t.Fatalf("Rejected = %q", tools[0].Rejected)
	}
	cats := []Catalogue{{Server: "alpha", Tools: tools}, {Server: "beta", Tools: []Tool{good}}}
	for _, p := range Policies() {
		reg := p.Apply(cats)
		o := outcomeOf(reg, "alpha", 0)
		if o.Kind != Dropped || o.Reason != tools[0].Rejected {
			t.Errorf("%s: outcome = %v %q, want dropped with the rejection", p.Name, o.Kind, o.Reason)
		}
		if b := outcomeOf(reg, "beta", 0); !b.Live() {
			t.Errorf("%s: beta's lookup = %v (%s), want live: a rejected row collides with nothing", p.Name, b.Kind, b.Reason)
		}
		if sr := reg.Servers[0]; sr.Failed || len(sr.Missing) > 0 {
			t.Errorf("%s: alpha failed=%v missing=%v, want neither", p.Name, sr.Failed, sr.Missing)
		}
	}
	MarkRejected(tools, Revision20251125)
	if tools[0].Rejected != "" {
		t.Fatalf("at 2025-11-25 Rejected = %q, want none", tools[0].Rejected)
	}
}

func ExampleParamHeaders() {
	hs, _ := ParamHeaders(json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`))
	fmt.Println(hs[0].Path, "→ Mcp-Param-"+hs[0].Name)
	_, err := ParamHeaders(json.RawMessage(`{"type":"object","properties":{"data":{"type":"object","x-mcp-header":"Data"}}}`))
	fmt.Println(err)
	// Output:
	// [region] → Mcp-Param-Region
	// property data: x-mcp-header "Data" is on a parameter of type "object"; only string, integer and boolean parameters may carry one
}

// A named row the config filters or the client rejects is not a row
// without a usable name.
func TestWithheldRowsHaveNames(t *testing.T) {
	c := Catalogue{Server: "a", Tools: []Tool{
		{Name: "x", NameOK: true, FilteredBy: "excludeTools lists it"},
		{Name: "y", NameOK: true, Rejected: "rejected for its x-mcp-header: property p: x-mcp-header is empty"},
	}}
	for _, f := range Findings([]Catalogue{c}) {
		if f.Kind == "wire-name" {
			t.Errorf("finding %+v, want none for a named row", f)
		}
	}
}

// BenchmarkParamHeaders walks a schema of 200 annotated properties, each
// with a nested object and an array beside it; and a listing's worth of
// schemas without the keyword, which the byte scan passes over.
func BenchmarkParamHeaders(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"type":"object","properties":{`)
	for i := range 200 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `"p%d":{"type":"string","description":"parameter %d","x-mcp-header":"P%d"},"o%d":{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"}}}}`, i, i, i, i)
	}
	sb.WriteString(`}}`)
	annotated := json.RawMessage(sb.String())
	plain := json.RawMessage(strings.ReplaceAll(sb.String(), XMCPHeader, "x-other-key"))
	b.Run("annotated", func(b *testing.B) {
		b.SetBytes(int64(len(annotated)))
		for b.Loop() {
			if hs, err := ParamHeaders(annotated); err != nil || len(hs) != 200 {
				b.Fatal(len(hs), err)
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		b.SetBytes(int64(len(plain)))
		for b.Loop() {
			if hs, _ := ParamHeaders(plain); hs != nil {
				b.Fatal(hs)
			}
		}
	})
}

// FuzzParamHeaders: any schema is walked without a panic, and what it
// returns is usable as headers: each name a token, unique ignoring case,
// each path non-empty.
func FuzzParamHeaders(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"}}}`)
	f.Add(`{"properties":{"a":{"type":["integer"],"x-mcp-header":"a"},"b":{"properties":{"c":{"type":"boolean","x-mcp-header":"C"}}}}}`)
	f.Add(`{"oneOf":[{"properties":{"a":{"x-mcp-header":"A"}}}],"$defs":{"x":{"x-mcp-header":""}}}`)
	f.Add(`{"properties":{"a":{"type":"string","x\u002dmcp-header":"\u00e9"}}}`)
	f.Fuzz(func(t *testing.T, schema string) {
		if !json.Valid([]byte(schema)) {
			return
		}
		hs, err := ParamHeaders(json.RawMessage(schema))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, h := range hs {
			lower := strings.ToLower(h.Name)
			if h.Name == "" || len(h.Path) == 0 || seen[lower] {
				t.Fatalf("ParamHeaders(%s) = %+v", schema, hs)
			}
			for _, r := range h.Name {
				if !isTChar(r) {
					t.Fatalf("ParamHeaders(%s): name %q is not a token", schema, h.Name)
				}
			}
			seen[lower] = true
		}
	})
}
