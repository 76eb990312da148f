package form

import (
	"encoding/json"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/schemaform"
	"github.com/mcplens/mcplens/ui/kit"
)

func testConfig(secrets ...string) Config {
	b := func(k string) key.Binding { return key.NewBinding(key.WithKeys(k)) }
	return Config{
		Keys:   KeyMap{Next: b("down"), Prev: b("up"), Toggle: b("space"), Choose: b("left"), AddItem: b("ctrl+n"), RemoveItem: b("ctrl+r")},
		Styles: func() Styles { return Styles{} },
		Redact: model.NewRedactor(secrets...),
	}
}

// A schema's names and descriptions are server text: drawn at a width,
// every line fits it, and no escape or control byte of theirs reaches the
// screen.
func TestHostileSchemaFits(t *testing.T) {
	long := strings.Repeat("é", 100_000)
	schema, _ := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"a\x1b]52;c;ZXZpbA==\x07" + long: map[string]any{"type": "string", "description": "\x1b[2J\r" + long},
			"on":                             map[string]any{"type": "boolean", "description": "say \x00yes"},
		},
		"required": []string{"on"},
	})
	f := New(testConfig(), schemaform.New(schema, true))
	f.SetSize(40, 10)
	got := f.View()
	for i, l := range strings.Split(got, "\n") {
		if w := kit.Width(l); w > 40 {
			t.Errorf("line %d is %d wide", i, w)
		}
	}
	if strings.ContainsAny(got, "\x1b\x07\r\x00") {
		t.Errorf("the form shows server bytes unsanitized:\n%q", got)
	}
}

// Next moves between the fields; toggle sets the boolean focused, and the
// form's value says so.
func TestToggleSetsTheValue(t *testing.T) {
	f := New(testConfig(), schemaform.New(json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"on":{"type":"boolean"}}}`), false))
	if f.Len() != 2 || f.Field() == nil || f.Field().Path() != "a" {
		t.Fatalf("rows %d, focused %v", f.Len(), f.Field())
	}
	f.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	if f.Focused() != 1 {
		t.Fatalf("down: focused %d, want 1", f.Focused())
	}
	if _, changed := f.Update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}); !changed {
		t.Error("space on a boolean changed nothing")
	}
	v, err := f.Form().Value()
	if err != nil || !strings.Contains(string(v), `"on":true`) {
		t.Errorf("value %s, %v; want on true", v, err)
	}
}

// A config's secret that a server puts in its schema (a title, a
// description, an option, an enum's default) is masked: it never reaches
// the form's View, at a width or without one, whichever row is focused.
func TestSchemaSecretsMasked(t *testing.T) {
	const secret = "sk-live-0123456789abcdef"
	schema, _ := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"token": map[string]any{"type": "string", "title": "key " + secret, "description": "send " + secret + " here"},
			"mode":  map[string]any{"type": "string", "enum": []string{secret, "off"}, "default": secret},
			"pick": map[string]any{"type": "array", "items": map[string]any{"type": "string",
				"oneOf": []any{map[string]any{"const": "a", "title": "the " + secret}, map[string]any{"const": secret}}}},
		},
		"required": []string{"mode", "pick"},
	})
	for _, width := range []int{0, 60, 200} {
		f := New(testConfig(secret), schemaform.New(schema, true))
		f.SetSize(width, 0)
		got := f.View()
		for range f.Len() {
			f.Update(tea.KeyPressMsg{Code: tea.KeyDown})
			got += "\n" + f.View()
		}
		if strings.Contains(got, secret) || strings.Contains(got, secret[:12]) {
			t.Errorf("width %d: the config's secret reaches the form:\n%s", width, got)
		}
		if !strings.Contains(got, model.Masked) {
			t.Errorf("width %d: nothing masked:\n%s", width, got)
		}
	}
}
