package schemaform_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/schemaform"
)

// skeleton is the JSON mode's starting text for a tool's input schema, as
// the argument editor builds it.
func skeleton(schema json.RawMessage) string {
	return schemaform.Format(schemaform.New(schema, true).Value())
}

// Whatever the schema, the skeleton is a JSON object that is safe on a
// terminal.
func FuzzSkeleton(f *testing.F) {
	for _, s := range []string{"", "true", `{"type":5}`, `{"properties":{"a":{"type":"string"}},"required":["a"]}`,
		`{"properties":{"o":{"default":{"b":[1,{"c":null}]}}}}`, `{"properties":{"v":{"anyOf":[{"type":"null"},{}]}},"required":["v"]}`,
		`{"properties":{"a\u001b[31m\u202e":{"type":"string"}},"required":["a\u001b[31m\u202e"]}`,
		strings.Repeat(`{"properties":{"n":`, 20) + "{}" + strings.Repeat("}}", 20)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, schema string) {
		got := skeleton(json.RawMessage(schema))
		var v map[string]any
		if err := json.Unmarshal([]byte(got), &v); err != nil {
			t.Fatalf("skeleton(%q) = %q, not a JSON object: %v", schema, got, err)
		}
		if model.Suspicious(strings.ReplaceAll(got, "\n", "")) {
			t.Fatalf("skeleton(%q) = %q, not terminal-safe", schema, got)
		}
	})
}

// The skeleton shows hidden characters of a property's name and default
// escaped, yet means the same: it decodes to the schema's own name and
// default, so a call sends the server's names.
func TestSkeletonKeepsHiddenCharacters(t *testing.T) {
	key, def := "q\u00ad\ufe0f\U000E0068\U000E0069", "x\U000E0079\U000E006F\u202e"
	schema, _ := json.Marshal(map[string]any{"properties": map[string]any{key: map[string]any{"type": "string", "default": def}}})
	got := skeleton(schema)
	if model.Suspicious(strings.ReplaceAll(got, "\n", "")) {
		t.Errorf("skeleton(%s) = %q, holds characters that are not escaped", schema, got)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(got), &back); err != nil || len(back) != 1 || back[key] != def {
		t.Errorf("skeleton(%s) = %q, decodes to %q (%v), want {%q: %q}", schema, got, back, err, key, def)
	}
}
