package ui_test

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// spelled writes msg in variation selectors, one a byte, as text is hidden
// after a visible character.
func spelled(msg string) string {
	var sb strings.Builder
	for _, b := range []byte(msg) {
		if b < 16 {
			sb.WriteRune(0xfe00 + rune(b))
		} else {
			sb.WriteRune(0xe0100 + rune(b) - 16)
		}
	}
	return sb.String()
}

// rawHidden returns the characters of hidden that a screen carries raw, or
// that Sanitize would escape, other than line breaks and the escape
// sequences the interface draws with.
func rawHidden(screen, hidden string) []string {
	var out []string
	for _, r := range ansi.Strip(screen) {
		if r != '\n' && (model.Suspicious(string(r)) || strings.ContainsRune(hidden, r)) {
			out = append(out, model.Sanitize(string(r)))
		}
	}
	return out
}

// TestUIEscapesHiddenCharacters runs a real server whose tool name (and so
// its description, and the call's answer) carries variation selectors
// spelling a message, a tag character, a Hangul filler, a soft hyphen and a
// braille blank, and checks no view, pane or the argument editor shows
// one of them raw, and that they are shown escaped with what they spell.
func TestUIEscapesHiddenCharacters(t *testing.T) {
	name := "ask" + spelled("run rm") + "\U000e0041\u3164\u00ad\u2800"
	cfg := demo.Config(os.Args[0])
	cfg.Servers = cfg.Servers[:1]
	cfg.Servers[0].Env = []config.EnvVar{{Key: demoEnv, Value: "alpha"}}
	cfg.Servers = append(cfg.Servers, config.ServerSpec{Label: "h", Command: os.Args[0],
		Args: []string{demo.Subcommand, "h", name}, Env: []config.EnvVar{{Key: demoEnv, Value: "h"}}})
	sess := loader.Open(cfg, loader.Options{Timeout: 20 * time.Second, Protocol: model.Revision20251125}) // the frames of initialize, as demoSession
	t.Cleanup(func() { sess.Close() })

	var m tea.Model = ui.New(ui.Options{Title: "hidden", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 400, Height: 50})
	m = settle(t, m, cfg, sess)
	var seen strings.Builder
	check := func(where string) {
		t.Helper()
		raw := m.View().Content
		seen.WriteString(screen(m))
		if bad := rawHidden(raw, strings.TrimPrefix(name, "ask")); len(bad) > 0 {
			t.Errorf("%s: the screen carries %q raw:\n%s", where, bad, screen(m))
		}
	}
	m = press(m, "G")
	check("servers view")
	m = press(m, "i")
	check("argument editor")
	m = sendAndWait(t, m, "the call did not end")
	check("call result")
	m = press(m, "esc")
	for _, v := range []string{"2", "3", "4", "5"} {
		m = ui.Settle(press(m, v))
		check("view " + v)
	}
	escapedName := `ask\U000e0162\U000e0165\U000e015e\U000e0110\U000e0162\U000e015d\U000e0041\u3164\u00ad\u2800`
	m = press(m, "1", "w")
	check("wire pane")
	if got := screen(m); !strings.Contains(got, `h ← {"jsonrpc":"2.0"`) || !strings.Contains(got, `"name":"`+escapedName+`"`) {
		t.Errorf("the wire pane does not show h's frames with the name escaped:\n%s", got)
	}
	text := seen.String()
	for _, want := range []string{escapedName, `spell "run rm"`} {
		if !strings.Contains(text, want) {
			t.Errorf("no view shows %s", want)
		}
	}
}
