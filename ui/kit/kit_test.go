package kit

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
)

// A secret that starts inside the bytes a line shows is cut whole, so
// masking sees it; a megabyte of server text is cut to the line.
func TestCutKeepsASecretWhole(t *testing.T) {
	secret := "opensesame99-longer-than-the-line"
	r := model.NewRedactor(secret)
	text := strings.Repeat("x", 8) + secret + strings.Repeat("y", 1<<20)
	got := Quote(r, Cut(r, text, 10))
	if strings.Contains(got, "op") || !strings.Contains(got, model.Masked) {
		t.Errorf("the secret was not masked whole after the cut: %q", got)
	}
	if len(got) > 10+len(secret)+8 {
		t.Errorf("cut to 10 columns kept %d bytes", len(got))
	}
}

// Server text is sanitized before it is shown: an escape sequence or a
// control byte never reaches the terminal as itself.
func TestQuoteAndTextSanitize(t *testing.T) {
	for _, f := range []func(*model.Redactor, string) string{Quote, Text} {
		got := f(nil, "title\x1b]52;c;ZXZpbA==\x07 \x1b[2J\r\x00end")
		if strings.ContainsAny(got, "\x1b\x07\r\x00") {
			t.Errorf("unsanitized: %q", got)
		}
	}
}

// Wrap wraps each line to the width, never wider, and says which line
// each wrapped line came from.
func TestWrap(t *testing.T) {
	lines := []string{"short", strings.Repeat("word ", 40), "\x1b[1mbold\x1b[m"}
	styled, plain, src := Wrap(lines, 20)
	if len(styled) != len(plain) || len(styled) != len(src) {
		t.Fatalf("lengths differ: %d %d %d", len(styled), len(plain), len(src))
	}
	for i, l := range styled {
		if Width(l) > 20 {
			t.Errorf("line %d is %d wide: %q", i, Width(l), l)
		}
	}
	if src[0] != 0 || src[len(src)-1] != 2 || len(styled) < 5 {
		t.Errorf("src = %v over %d lines", src, len(styled))
	}
	if plain[len(plain)-1] != "bold" {
		t.Errorf("plain of a styled line = %q, want bold", plain[len(plain)-1])
	}
}

// Moved keeps a position within its lines whatever the key.
func TestMovedStaysInBounds(t *testing.T) {
	nav := Nav{Up: key.NewBinding(key.WithKeys("up")), Down: key.NewBinding(key.WithKeys("down")),
		PageUp: key.NewBinding(key.WithKeys("pgup")), PageDown: key.NewBinding(key.WithKeys("pgdown")),
		Top: key.NewBinding(key.WithKeys("home")), Bottom: key.NewBinding(key.WithKeys("end"))}
	for _, tt := range []struct {
		code      rune
		pos, want int
	}{
		{tea.KeyUp, 0, 0}, {tea.KeyDown, 9, 9}, {tea.KeyPgDown, 5, 9}, {tea.KeyPgUp, 2, 0},
		{tea.KeyHome, 7, 0}, {tea.KeyEnd, 0, 9}, {tea.KeyDown, 3, 4},
	} {
		got, ok := Moved(tea.KeyPressMsg{Code: tt.code}, nav, tt.pos, 9, 5)
		if !ok || got != tt.want {
			t.Errorf("key %v from %d: %d, %v; want %d", tt.code, tt.pos, got, ok, tt.want)
		}
	}
	if _, ok := Moved(tea.KeyPressMsg{Code: 'x', Text: "x"}, nav, 3, 9, 5); ok {
		t.Error("x moved")
	}
}

// Cancel drops the query typed, done keeps it.
func TestQuery(t *testing.T) {
	cancel, done := key.NewBinding(key.WithKeys("esc")), key.NewBinding(key.WithKeys("enter"))
	q := NewQuery()
	q.Start()
	for _, r := range "abc" {
		q.Key(tea.KeyPressMsg{Code: r, Text: string(r)}, cancel, done)
	}
	if _, changed := q.Key(tea.KeyPressMsg{Code: tea.KeyEnter}, cancel, done); changed || q.Typing || q.Text != "abc" {
		t.Errorf("enter: changed %v, typing %v, text %q; want abc kept", changed, q.Typing, q.Text)
	}
	q.Start()
	if _, changed := q.Key(tea.KeyPressMsg{Code: tea.KeyEscape}, cancel, done); !changed || q.Typing || q.Text != "" {
		t.Errorf("esc: changed %v, typing %v, text %q; want it dropped", changed, q.Typing, q.Text)
	}
}

// A box fits whatever it is given: no line wider or more lines than the
// screen, the foot's last line (the keys) always drawn, and the line at
// in sight with marks for what is scrolled out.
func TestBoxFits(t *testing.T) {
	var body []string
	for i := range 50 {
		body = append(body, fmt.Sprintf("line %d %s", i, strings.Repeat("w", 200)))
	}
	head := []string{"title", "second", "third"}
	foot := []string{"", "keys"}
	for _, size := range [][2]int{{80, 24}, {20, 6}, {5, 3}, {200, 60}} {
		got := Box(BoxStyles{}, head, body, foot, 30, size[0], size[1])
		lines := strings.Split(got, "\n")
		if len(lines) > max(size[1], 5) {
			t.Errorf("%v: %d lines", size, len(lines))
		}
		for i, l := range lines {
			if w := Width(l); w > max(size[0], 14) {
				t.Errorf("%v: line %d is %d wide", size, i, w)
			}
		}
		if !strings.Contains(got, "keys") || !strings.Contains(got, "line 30") {
			t.Errorf("%v: the keys or the line at are not drawn:\n%s", size, got)
		}
		if size[1] == 24 && (!strings.Contains(got, "↑") || !strings.Contains(got, "↓")) {
			t.Errorf("%v: no marks for the lines scrolled out:\n%s", size, got)
		}
	}
}

// FitKeys keeps the first keys that fit, and says when some are left out.
func TestFitKeys(t *testing.T) {
	bs := []key.Binding{
		key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "first")),
		key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "second")),
	}
	h := help.New()
	if got := FitKeys(h, bs, 100); !strings.Contains(got, "second") || strings.Contains(got, "…") {
		t.Errorf("wide: %q", got)
	}
	if got := FitKeys(h, bs, 12); !strings.Contains(got, "first") || strings.Contains(got, "second") || !strings.Contains(got, "…") {
		t.Errorf("narrow: %q", got)
	}
	if got := FitKeys(h, bs, 2); got != "" {
		t.Errorf("too narrow: %q", got)
	}
}
