package editor

import (
	"encoding/json"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui/form"
	"github.com/mcplens/mcplens/ui/kit"
)

var (
	ctrlS = tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	tab   = tea.KeyPressMsg{Code: tea.KeyTab}
	esc   = tea.KeyPressMsg{Code: tea.KeyEscape}
	yes   = tea.KeyPressMsg{Code: 'y', Text: "y"}
)

func testConfig(secrets ...string) Config {
	b := func(k string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, k)) }
	r := model.NewRedactor(secrets...)
	return Config{
		Keys:   KeyMap{Send: b("ctrl+s"), Mode: b("tab"), Cancel: b("esc"), Yes: b("y")},
		Styles: func() Styles { return Styles{} },
		Redact: r,
		Form: form.Config{
			Keys:   form.KeyMap{Next: b("down"), Prev: b("up"), Toggle: b("space"), Choose: b("left"), AddItem: b("ctrl+n"), RemoveItem: b("ctrl+r")},
			Styles: func() form.Styles { return form.Styles{} },
			Redact: r,
		},
	}
}

// target is a call routed to the tool it was opened on.
var target = Target{Policy: "verbatim", Row: model.Outcome{Server: "alpha", Wire: "add", Name: "add"},
	Route: model.Route{Name: "add", Server: "alpha", Wire: "add"}}

const addSchema = `{"type":"object","properties":{"a":{"type":"integer","description":"the first"},"b":{"type":"integer"}},"required":["a","b"]}`

func open(t *testing.T, c Config, tg Target, schema, args string) *Model {
	t.Helper()
	var a json.RawMessage
	if args != "" {
		a = json.RawMessage(args)
	}
	v := New(c, tg, json.RawMessage(schema), a)
	v.SetSize(100, 40)
	v.Focus()
	return v
}

// Arguments that fail the input schema are listed and not sent; ctrl+s
// again sends them as they are. JSON with an error says where, and is
// never sent.
func TestSendChecksTheSchema(t *testing.T) {
	v := open(t, testConfig(), target, addSchema, "")
	v.SetText(`{"a": "x"}`)
	v.Update(ctrlS)
	if _, sent := v.Sent(); sent || v.Closed() {
		t.Fatal("arguments failing the schema were sent at the first ctrl+s")
	}
	if got := v.View(); !strings.Contains(got, "fail the input schema") || !strings.Contains(got, "/a") {
		t.Errorf("the problems are not listed:\n%s", got)
	}
	v.Update(ctrlS)
	if args, sent := v.Sent(); !sent || !v.Closed() || string(args) != `{"a": "x"}` {
		t.Errorf("ctrl+s again: sent %v %s, closed %v; want the arguments as typed", sent, args, v.Closed())
	}
	v = open(t, testConfig(), target, addSchema, "")
	v.SetText("{\n  \"a\": 1,\n}")
	v.Update(ctrlS)
	v.Update(ctrlS)
	if _, sent := v.Sent(); sent {
		t.Error("JSON with an error was sent")
	}
	if got := v.View(); !strings.Contains(got, "line 3") {
		t.Errorf("the error does not say its line:\n%s", got)
	}
}

// While a call runs nothing is sent; a target without a route sends
// nothing and says so.
func TestSendRefused(t *testing.T) {
	v := open(t, testConfig(), target, addSchema, `{"a":1,"b":2}`)
	v.SetCalling(true)
	v.Update(ctrlS)
	if _, sent := v.Sent(); sent || !strings.Contains(v.View(), "a call is running") {
		t.Errorf("sent while a call runs:\n%s", v.View())
	}
	v.SetCalling(false)
	v.Update(ctrlS)
	if args, sent := v.Sent(); !sent || strings.Join(strings.Fields(string(args)), "") != `{"a":1,"b":2}` {
		t.Errorf("sent %v %s; want the arguments it opened on", sent, args)
	}
	lost := Target{Policy: "qwen", Row: model.Outcome{Server: "alpha", Wire: "add", Name: "alpha__add"}}
	v = open(t, testConfig(), lost, addSchema, "")
	v.Update(ctrlS)
	if _, sent := v.Sent(); sent || !strings.Contains(v.View(), "alpha__add is not in the registry under qwen") {
		t.Errorf("a call without a route: sent %v\n%s", sent, v.View())
	}
}

// Tab carries the arguments from the JSON to the form and back.
func TestModeCarriesArguments(t *testing.T) {
	v := open(t, testConfig(), target, addSchema, "")
	v.SetText(`{"a": 7, "b": 8}`)
	v.Update(tab)
	if got := v.View(); !strings.Contains(got, "arguments (form)") || !strings.Contains(got, "7") {
		t.Fatalf("tab did not show the form on the arguments:\n%s", got)
	}
	v.Update(tab)
	if got := v.View(); !strings.Contains(got, "arguments (JSON)") || !strings.Contains(got, `"b": 8`) {
		t.Errorf("tab back lost the arguments:\n%s", got)
	}
	v.SetText(`[1]`)
	v.Update(tab)
	if got := v.View(); !strings.Contains(got, "arguments (JSON)") {
		t.Errorf("arguments that are not an object left the JSON:\n%s", got)
	}
}

// Esc closes at once when nothing was typed, and asks first when
// something was: any key but y goes back.
func TestEscAsks(t *testing.T) {
	v := open(t, testConfig(), target, addSchema, "")
	if v.Update(esc); !v.Closed() {
		t.Error("esc with nothing typed did not close")
	}
	v = open(t, testConfig(), target, addSchema, "")
	v.SetText(`{"a": 1}`)
	if v.Update(esc); v.Closed() || !strings.Contains(v.View(), "throw away") {
		t.Fatalf("esc after typing closed without asking:\n%s", v.View())
	}
	if v.Update(tea.KeyPressMsg{Code: 'n', Text: "n"}); v.Closed() {
		t.Fatal("n threw the arguments away")
	}
	v.Update(esc)
	if v.Update(yes); !v.Closed() {
		t.Error("y did not throw the arguments away")
	}
}

// A config's secret that a server puts in its schema (a property's
// description, an enum's choice) never reaches the editor's View: not in
// the JSON mode's hints, not in the form.
func TestSchemaSecretsMasked(t *testing.T) {
	const secret = "sk-live-0123456789abcdef"
	schema := `{"type":"object","properties":{"key":{"type":"string","description":"use ` + secret + `"},
"env":{"type":"string","enum":["` + secret + `","prod"]}},"required":["env"]}`
	v := open(t, testConfig(secret), target, schema, "")
	v.SetText(`{"env": "prod"}`)
	json := v.View()
	v.Update(tab)
	form := v.View()
	for _, got := range []string{json, form} {
		if strings.Contains(got, secret) || strings.Contains(got, secret[:12]) {
			t.Errorf("the config's secret reaches the editor:\n%s", got)
		}
		if !strings.Contains(got, model.Masked) {
			t.Errorf("nothing masked:\n%s", got)
		}
	}
}

// The editor fits the screen whatever the schema: no line wider, no more
// lines, no escape of the schema's drawn as itself, and the keys always
// drawn.
func TestFitsTheScreen(t *testing.T) {
	long := strings.Repeat("é", 50_000)
	schema, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
		"a\x1b[2J" + long: map[string]any{"type": "string", "description": "\x1b]52;c;ZXZpbA==\x07" + long},
		"b":               map[string]any{"type": "integer", "description": long},
	}})
	for _, size := range [][2]int{{160, 48}, {80, 24}, {40, 12}} {
		v := open(t, testConfig(), target, string(schema), "")
		v.SetSize(size[0], size[1])
		for _, got := range []string{v.View(), func() string { v.Update(tab); return v.View() }()} {
			lines := strings.Split(got, "\n")
			if len(lines) > size[1] {
				t.Errorf("%v: %d lines", size, len(lines))
			}
			for i, l := range lines {
				if w := kit.Width(l); w > size[0] {
					t.Errorf("%v: line %d is %d wide", size, i, w)
				}
			}
			if strings.ContainsAny(got, "\x07") || strings.Contains(got, "\x1b]52") || !strings.Contains(got, "ctrl+s") {
				t.Errorf("%v: unsanitized, or the keys are not drawn:\n%q", size, got)
			}
		}
	}
}
