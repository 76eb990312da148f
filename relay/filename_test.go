package relay_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcplens/mcplens/relay"
)

// checkFileName fails when name could not be a recording's file name of
// its own in a folder: a separator, a control byte, a leading dot or dash,
// more than 64 bytes.
func checkFileName(t *testing.T, label, name string) {
	t.Helper()
	switch {
	case name == "" || len(name) > 64:
		t.Errorf("FileName(%q) = %q: want 1 to 64 bytes", label, name)
	case name[0] == '.' || name[0] == '-':
		t.Errorf("FileName(%q) = %q: a leading %q", label, name, name[0])
	case strings.ContainsAny(name, `/\`) || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r >= 0x7f }):
		t.Errorf("FileName(%q) = %q: a separator, a control byte or a non-ASCII byte", label, name)
	}
}

func TestFileName(t *testing.T) {
	tests := []struct {
		label, want string
	}{
		{"github", "github"},
		{"brave-search", "brave-search"},
		{"mcp_server.v2", "mcp_server.v2"},
		{"a/b", "a_b~"},
		{"a_b", "a_b"},
		{"a b", "a_b~"},
		{"GitHub", "GitHub~"},
		{"..", "_..~"},
		{".hidden", "_.hidden~"},
		{"-rf", "_-rf~"},
		{"", "_~"},
		{"../../etc/passwd", "_.._.._etc_passwd~"},
		{"x\x1b]0;pwned\a\ny", "x__0_pwned__y~"},
		{"ünïcode", "_n_code~"},
		{strings.Repeat("a", 64), strings.Repeat("a", 64)},
		{strings.Repeat("a", 65), strings.Repeat("a", 40) + "~"},
	}
	seen := map[string]string{}
	for _, tt := range tests {
		got := relay.FileName(tt.label)
		if got != tt.want && !(strings.HasSuffix(tt.want, "~") && strings.HasPrefix(got, tt.want) && len(got) == len(tt.want)+12) {
			t.Errorf("FileName(%q) = %q, want %q", tt.label, got, tt.want+map[bool]string{true: "<12 hex digits>"}[strings.HasSuffix(tt.want, "~")])
		}
		checkFileName(t, tt.label, got)
		if other, ok := seen[strings.ToLower(got)]; ok {
			t.Errorf("FileName(%q) = FileName(%q) = %q, folding case", tt.label, other, got)
		}
		seen[strings.ToLower(got)] = tt.label
		if again := relay.FileName(tt.label); again != got {
			t.Errorf("FileName(%q) = %q, then %q", tt.label, got, again)
		}
	}
	if a, b := relay.FileName("A"), relay.FileName("a"); strings.EqualFold(a, b) {
		t.Errorf(`FileName("A") = %q and FileName("a") = %q: one file where case folds`, a, b)
	}
}

// FuzzFileName: any two labels have two names, each a file name of its own.
func FuzzFileName(f *testing.F) {
	f.Add("a/b", "a b")
	f.Add("a_b", "a/b")
	f.Add("GitHub", "github")
	f.Add(".", "..")
	f.Fuzz(func(t *testing.T, a, b string) {
		na, nb := relay.FileName(a), relay.FileName(b)
		checkFileName(t, a, na)
		checkFileName(t, b, nb)
		if a != b && strings.EqualFold(na, nb) {
			t.Errorf("FileName(%q) = %q and FileName(%q) = %q", a, na, b, nb)
		}
		if !utf8.ValidString(na) {
			t.Errorf("FileName(%q) = %q: not UTF-8", a, na)
		}
	})
}
