package model

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSchemaProblem(t *testing.T) {
	deep := strings.Repeat(`{"type":"object","properties":{"n":`, 40) + `{}` + strings.Repeat(`}}`, 40)
	tooDeep := strings.Repeat(`[`, 20000) + strings.Repeat(`]`, 20000)
	tests := []struct {
		name, schema, want string
	}{
		{"absent", ``, ``},
		{"fine", `{"type":"object","properties":{"q":{"type":"string"}}}`, ``},
		{"true", `true`, `inputSchema is a boolean, not an object`},
		{"type 5", `{"type":5}`, `inputSchema "type" is a number, not "object"`},
		{"type string", `{"type":"string"}`, `inputSchema "type" is "string", not "object"`},
		{"no type", `{"properties":{}}`, `inputSchema has no "type"; MCP requires "object"`},
		{"array", `[]`, `inputSchema is an array, not an object`},
		{"invalid", `{"type":`, `inputSchema is not valid JSON`},
		{"deep", deep, `inputSchema nests 81 levels deep (flagged beyond 32)`},
		{"beyond encoding/json", tooDeep, `inputSchema is an array, not an object`},
		{"escape in type", `{"type":"\u001b[2J"}`, `inputSchema "type" is "\u001b[2J", not "object"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SchemaProblem(json.RawMessage(tt.schema)); got != tt.want {
				t.Errorf("SchemaProblem(%.40q) = %q, want %q", tt.schema, got, tt.want)
			}
		})
	}
}

func TestSchemaFindings(t *testing.T) {
	cats := []Catalogue{{Server: "s", Tools: []Tool{
		{Name: "ok", NameOK: true, InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "bad", NameOK: true, InputSchema: json.RawMessage(`true`)},
		{Name: "text", NameOK: true, InputSchema: json.RawMessage(
			`{"type":"object","properties":{"q":{"description":"\u001b[5mblink\u001b[0m \u202eevil"}}}`)},
	}}}
	var got []string
	for _, f := range Findings(cats) {
		if f.Kind == "schema" || strings.Contains(f.Evidence, "input schema") {
			got = append(got, f.Kind+" "+f.Tool+": "+f.Evidence)
		}
	}
	want := []string{
		`schema bad: "bad" on s: inputSchema is a boolean, not an object`,
		`invisible-text text: input schema of "text" on s holds 1 invisible character, first U+202E (bidi control) at character 15: "\x1b[5mblink\x1b[0m \u202eevil"`,
		`control-text text: input schema of "text" on s holds 2 control characters, first U+001B (escape) at character 1: "\x1b[5mblink\x1b[0m \u202eev..."`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("schema findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
