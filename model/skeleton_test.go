package model

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestArgumentSkeleton(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   string
	}{
		{"absent", "", "{}"},
		{"true", "true", "{}"},
		{"invalid", `{"type":"object",`, "{}"},
		{"trailing data", `{"type":"object"} {}`, "{}"},
		{"type is a number", `{"type":5}`, "{}"},
		{"not an object schema", `{"type":"string"}`, "{}"},
		{"no properties", `{"type":"object"}`, "{}"},
		{"order kept", `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"},"mid":{"type":"boolean"}}}`,
			"{\n  \"zeta\": \"\",\n  \"alpha\": 0,\n  \"mid\": false\n}"},
		{"placeholders", `{"properties":{"n":{"type":"number"},"a":{"type":"array","items":{"type":"string"}},"x":{},"t":true,"u":{"type":["null","string"]}}}`,
			"{\n  \"n\": 0,\n  \"a\": [],\n  \"x\": null,\n  \"t\": null,\n  \"u\": \"\"\n}"},
		{"nested", `{"type":"object","properties":{"opts":{"type":"object","properties":{"deep":{"type":"boolean"},"e":{"type":"object"}}}}}`,
			"{\n  \"opts\": {\n    \"deep\": false,\n    \"e\": {}\n  }\n}"},
		{"enum first", `{"properties":{"mode":{"type":"string","enum":["fast","slow"]}}}`,
			"{\n  \"mode\": \"fast\"\n}"},
		{"default wins", `{"properties":{"mode":{"type":"string","enum":["fast","slow"],"default":"slow"},"lim":{"type":"integer","default":10}}}`,
			"{\n  \"mode\": \"slow\",\n  \"lim\": 10\n}"},
		{"default object kept in order", `{"properties":{"o":{"type":"object","default":{"b":1,"a":[true,null]}}}}`,
			"{\n  \"o\": {\n    \"b\": 1,\n    \"a\": [\n      true,\n      null\n    ]\n  }\n}"},
		{"anyOf skips null", `{"properties":{"v":{"anyOf":[{"type":"null"},{"type":"integer"}]}}}`,
			"{\n  \"v\": 0\n}"},
		{"hostile key escaped", `{"properties":{"a\u001b[31m\u202e":{"type":"string"}}}`,
			"{\n  \"a\\u001b[31m\\u202e\": \"\"\n}"},
		{"hidden key and default escaped, beyond U+FFFF as a surrogate pair", `{"properties":{"q\u00ad\ufe0f":{"type":"string","default":"x\udb40\udd00"}}}`,
			"{\n  \"q\\u00ad\\ufe0f\": \"x\\udb40\\udd00\"\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ArgumentSkeleton(json.RawMessage(tt.schema))
			if got != tt.want {
				t.Errorf("ArgumentSkeleton(%q) = %q, want %q", tt.schema, got, tt.want)
			}
			if !json.Valid([]byte(got)) || Suspicious(strings.ReplaceAll(got, "\n", "")) {
				t.Errorf("ArgumentSkeleton(%q) = %q, want valid, terminal-safe JSON", tt.schema, got)
			}
		})
	}
}

func TestArgumentSkeletonDepth(t *testing.T) {
	// 50 levels of nested object properties: the skeleton fills
	// skeletonDepth levels, writes the next as {}, and is still valid JSON.
	schema := `{"type":"string"}`
	for range 50 {
		schema = `{"type":"object","properties":{"n":` + schema + `}}`
	}
	got := ArgumentSkeleton(json.RawMessage(schema))
	if depth := strings.Count(got, "{"); depth != skeletonDepth+1 || !strings.Contains(got, `"n": {}`) {
		t.Errorf("ArgumentSkeleton(50 levels) has %d objects, want %d, the last empty:\n%s", depth, skeletonDepth+1, got)
	}
	if !json.Valid([]byte(got)) {
		t.Errorf("ArgumentSkeleton(50 levels) = %q, want valid JSON", got)
	}

	// Hostile nesting far beyond anything encoding/json would accept.
	hostile := `{"properties":{"x":{"default":` + strings.Repeat("[", 200000) + strings.Repeat("]", 200000) + `}}}`
	if got, want := ArgumentSkeleton(json.RawMessage(hostile)), "{\n  \"x\": [\n    [\n"; !strings.HasPrefix(got, want) {
		t.Errorf("ArgumentSkeleton(deep default) = %.40q..., want it to start %q", got, want)
	}
	unbalanced := `{"properties":{"x":{"default":` + strings.Repeat("[", 200000) + `}}}`
	if got := ArgumentSkeleton(json.RawMessage(unbalanced)); got != "{}" {
		t.Errorf("ArgumentSkeleton(unbalanced) = %.40q, want {}", got)
	}
}
