package model

import (
	"strings"
	"testing"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"plain", "mcp__alpha__request", "mcp__alpha__request"},
		{"printable unicode", "café 日本 😀", "café 日本 😀"},
		{"backslash kept", `a\x1b`, `a\x1b`},
		{"empty", "", ""},
		{"SGR colour", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"OSC retitle", "\x1b]0;x\x07", `\x1b]0;x\a`},
		{"right-to-left override", "evil\u202etxt.exe", `evil\u202etxt.exe`},
		{"zero-width space", "re\u200bquest", `re\u200bquest`},
		{"newline and tab", "a\nb\tc\r", `a\nb\tc\r`},
		{"invalid UTF-8", "a\xffb\xc3", `a\xffb\xc3`},
		{"NUL and DEL", "\x00\x7f", `\x00\x7f`},
		{"C1 control", "a\u0085b\u009b", `a\u0085b\u009b`},
		{"bidi isolates and marks", "\u2066\u2069\u200e\u200f\u061c", `\u2066\u2069\u200e\u200f\u061c`},
		{"BOM and joiners", "\ufeff\u200c\u200d\u2060", `\ufeff\u200c\u200d\u2060`},
		{"line separator", "a\u2028b", `a\u2028b`},
		{"emoji presentation selector", "⚠\ufe0f ok", `⚠\ufe0f ok`},
		{"supplementary variation selectors", "😀\U000e0159\U000e0157", `😀\U000e0159\U000e0157`},
		{"tag characters", "x\U000e0001\U000e0041\U000e007f", `x\U000e0001\U000e0041\U000e007f`},
		{"soft hyphen and fillers", "a\u00adb\u3164\u115f\uffa0", `a\u00adb\u3164\u115f\uffa0`},
		{"braille blank", "\u2800name", `\u2800name`},
		{"private use", "\ue000\U000f0000", `\ue000\U000f0000`},
		{"printable beyond the tables", "\u2801 \u1d17 \u3165 \U0001d172", "\u2801 \u1d17 \u3165 \U0001d172"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sanitize(tt.in); got != tt.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got, want := Suspicious(tt.in), tt.in != tt.want; got != want {
				t.Errorf("Suspicious(%q) = %v, want %v", tt.in, got, want)
			}
		})
	}
}

func TestSanitizeNoAllocation(t *testing.T) {
	s := strings.Repeat("mcp__alpha__request café ", 20)
	if n := testing.AllocsPerRun(100, func() { _ = Sanitize(s) }); n != 0 {
		t.Errorf("Sanitize(clean text) allocates %v times, want 0", n)
	}
}

// BenchmarkSanitize measures the text every view and report passes through
// Sanitize: plain ASCII (the fast path), printable text beyond ASCII (every
// character looked up), and text that needs escaping.
func BenchmarkSanitize(b *testing.B) {
	for _, bc := range []struct{ name, text string }{
		{"ascii", strings.Repeat("Fetch a page of results for the query. ", 8)},
		{"unicode", strings.Repeat("Récupère les résultats 日本語の説明 — «ok» ✓ 😀 ", 8)},
		{"escaped", strings.Repeat("red\x1b[31mtool\u202e evil\u200b ", 16)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			b.ReportAllocs()
			for b.Loop() {
				_ = Sanitize(bc.text)
			}
		})
	}
}
