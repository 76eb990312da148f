package reader

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui/kit"
)

func testConfig(copied *string) Config {
	b := func(k string) key.Binding { return key.NewBinding(key.WithKeys(k)) }
	return Config{
		Keys: KeyMap{Nav: kit.Nav{Up: b("up"), Down: b("down"), PageUp: b("pgup"), PageDown: b("pgdown"), Top: b("g"), Bottom: b("G")},
			Cancel: b("esc"), Search: b("/"), Next: b("n"), Previous: b("N"), Copy: b("y"), Save: b("o"),
			Linked: b("J"), Pair: b("|"), Done: b("enter")},
		Styles: func() Styles { return Styles{} },
		Redact: model.NewRedactor("hunter2-the-password"),
		Copy: func(what, text string) tea.Cmd {
			*copied = what + ": " + text
			return nil
		},
	}
}

func press(r *Model, keys ...string) {
	for _, k := range keys {
		switch k {
		case "esc":
			r.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
		case "enter":
			r.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
		default:
			for _, c := range k {
				r.Update(tea.KeyPressMsg{Code: c, Text: string(c)})
			}
		}
	}
}

// A search goes from match to match, scrolling each into sight; esc drops
// the search, then closes the reader.
func TestSearchAndClose(t *testing.T) {
	lines := make([]string, 500)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %03d", i)
	}
	var copied string
	r := New(testConfig(&copied), "TITLE", func() []string { return lines })
	r.SetSize(60, 12)
	press(r, "/", "line 4", "enter")
	if r.Typing() || !strings.Contains(r.View(), "match 1 of 100") || !strings.Contains(r.View(), "line 400") {
		t.Fatalf("after /line 4:\n%s", r.View())
	}
	press(r, "N")
	if !strings.Contains(r.View(), "match 100 of 100") || !strings.Contains(r.View(), "line 499") {
		t.Errorf("N from the first match should go to the last:\n%s", r.View())
	}
	press(r, "esc")
	if r.Closed() || strings.Contains(r.View(), "match") {
		t.Errorf("the first esc should drop the search, not close:\n%s", r.View())
	}
	press(r, "esc")
	if !r.Closed() {
		t.Error("the second esc did not close the reader")
	}
}

// y copies what the reader was given to copy, and says so; without a
// clip, y does nothing and the keys do not offer it.
func TestCopy(t *testing.T) {
	var copied string
	r := New(testConfig(&copied), "T", func() []string { return []string{"x"} })
	r.SetSize(40, 6)
	press(r, "y")
	if copied != "" || helpHas(r, "y") {
		t.Fatalf("y without a clip copied %q", copied)
	}
	r.Clip, r.ClipName = "the bytes", "the frame"
	press(r, "y")
	if copied != "the frame: the bytes" || !helpHas(r, "y") || !strings.Contains(r.View(), "copying the frame…") {
		t.Errorf("y copied %q:\n%s", copied, r.View())
	}
}

func helpHas(r *Model, k string) bool {
	for _, b := range r.ShortHelp() {
		for _, bk := range b.Keys() {
			if bk == k {
				return true
			}
		}
	}
	return false
}

// The search typed is shown masked and sanitized: a query that pastes a
// secret or an escape sequence does not draw it.
func TestHostileQueryShown(t *testing.T) {
	var copied string
	r := New(testConfig(&copied), "T", func() []string { return []string{"nothing to see"} })
	r.SetSize(80, 6)
	r.Update(tea.KeyPressMsg{Code: '/', Text: "/"})
	r.Update(tea.PasteMsg{Content: "hunter2-the-password\x1b]0;x\x07"})
	for _, c := range "hunter2-the-password\x1b]0;x\x07" {
		r.Update(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	press(r, "enter")
	got := r.View()
	if strings.Contains(got, "hunter2") || strings.ContainsAny(got, "\x07") || !strings.Contains(got, "no match") {
		t.Errorf("the query is shown unmasked or unsanitized:\n%q", got)
	}
}
