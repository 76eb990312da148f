package ui

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The fast measuring in render.go must agree with x/ansi and lipgloss on
// everything, not only on what it measures itself.

func renderSamples() []string {
	s := DefaultStyles(true)
	return []string{
		"",
		"plain ascii",
		"  " + s.OKText.Render("✓") + " " + s.ErrorText.Render("✗") + " " + s.Muted.Render("·"),
		s.Selected.Render("▸ selected row …"),
		s.ColumnHead.Render("WIRE NAME  REGISTERED AS"),
		"⠋ connecting",
		"─────",
		"wide 世界 text",
		"emoji 👍🏽 and flag 🇫🇷",
		"e\u0301 combining",
		"zero\u200bwidth",
		"tab\tin",
		"bell\x07",
		"\x1b]8;;http://x\x07link\x1b]8;;\x07",
		"\x1b[",
		"\x1b[31",
		"esc alone \x1b x",
		"✓\ufe0f variation",
		"del\x7f",
		"\xff invalid",
		strings.Repeat("long line ", 40),
	}
}

func TestTextWidthMatchesANSI(t *testing.T) {
	for _, s := range renderSamples() {
		if got, want := textWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("textWidth(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestTruncateMatchesANSI(t *testing.T) {
	for _, s := range renderSamples() {
		for _, w := range []int{0, 1, 2, 5, 12, 80, 400} {
			for _, tail := range []string{"", "…", "..."} {
				if got, want := truncate(s, w, tail), ansi.Truncate(s, w, tail); got != want {
					t.Errorf("truncate(%q, %d, %q) = %q, want %q", s, w, tail, got, want)
				}
			}
		}
	}
}

func TestJoinLeftMatchesLipgloss(t *testing.T) {
	samples := renderSamples()
	cases := [][]string{
		nil,
		{"one"},
		{"a\nbb", "ccc"},
		{strings.Join(samples, "\n"), "footer"},
		{"tab\tx\r\ny", "", "z"},
		samples,
	}
	for _, blocks := range cases {
		if got, want := joinLeft(blocks...), lipgloss.JoinVertical(lipgloss.Left, blocks...); got != want {
			t.Errorf("joinLeft(%q) = %q, want %q", blocks, got, want)
		}
	}
}

func FuzzTextWidth(f *testing.F) {
	for _, s := range renderSamples() {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, w int) {
		if got, want := textWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("textWidth(%q) = %d, want %d", s, got, want)
		}
		w %= 300
		if got, want := truncate(s, w, "…"), ansi.Truncate(s, w, "…"); got != want {
			t.Errorf("truncate(%q, %d) = %q, want %q", s, w, got, want)
		}
	})
}

func TestPaintersMatchLipgloss(t *testing.T) {
	for _, dark := range []bool{true, false} {
		s := DefaultStyles(dark)
		styles := map[string]lipgloss.Style{
			"OKText": s.OKText, "WarnText": s.WarnText, "ErrorText": s.ErrorText, "RenamedText": s.RenamedText,
			"Muted": s.Muted, "Selected": s.Selected, "ColumnHead": s.ColumnHead, "Overlay": s.Overlay,
			"Pane": s.Pane, "Header": s.Header, "Junk": s.Junk, "none": lipgloss.NewStyle(),
		}
		for name, st := range styles {
			p := newPainter(st)
			for _, text := range append(renderSamples(), "two\nlines", "  padded  ", s.OKText.Render("nested")) {
				if got, want := p.Render(text), st.Render(text); got != want {
					t.Errorf("dark %v, painter of %s: Render(%q) = %q, want %q", dark, name, text, got, want)
				}
			}
		}
	}
}
