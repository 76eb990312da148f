package relay

import (
	"strings"
	"testing"

	"github.com/mcplens/mcplens/model"
)

// maskShapes must mask exactly what model.MaskTokens masks.
func TestMaskShapes(t *testing.T) {
	tests := []string{
		`{"token":"ghp_0123456789abcdefghijklmn","url":"postgres://user:hunter2@db/x"}`,
		`Authorization: Bearer sk-proj-abcdefghijklmnopqrstuvwx and AKIAABCDEFGHIJKLMNOP`,
		"xoxb-1234567890123456789\tnpm_abcdefghijklmnopqrstuv\n" + `hf_abcdefghijklmnopqrstu/eyJhbGciOiJIUzI1NiJ9abcdef`,
		`user:pass@tcp(h:3306)/db a@b "x:y@z"`,
		`{"description":"nothing secret here, just sk-learn and ghp_x"}`,
		strings.Repeat("ab", 40) + "ghp_0123456789abcdefghijklmn",
		"",
	}
	for _, s := range tests {
		if got, want := maskShapes(s), model.MaskTokens(s); got != want {
			t.Errorf("maskShapes(%q) =\n%q, model.MaskTokens gives\n%q", s, got, want)
		}
	}
}

func FuzzMaskShapes(f *testing.F) {
	f.Add(`{"a":"ghp_0123456789abcdefghijklmn"} u:p@h`)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := maskShapes(s), model.MaskTokens(s); got != want {
			t.Errorf("maskShapes(%q) = %q, model.MaskTokens gives %q", s, got, want)
		}
	})
}
