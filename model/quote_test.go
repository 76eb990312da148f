package model

import (
	"encoding/json"
	"strings"
	"testing"
)

// QuoteJSON escapes what a terminal must not be sent, and the result
// decodes to the string it was given.
func TestQuoteJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{"a\"b\\c\n\t", `"a\"b\\c\n\t"`},
		{"a\x1b[31m\u202e", `"a\u001b[31m\u202e"`},
		{"q\u00ad\ufe0f", `"q\u00ad\ufe0f"`},
		{"x\U000E0100", `"x\udb40\udd00"`}, // beyond U+FFFF: a surrogate pair
		{"bad\xffbyte", `"bad\ufffdbyte"`},
	}
	for _, tt := range tests {
		got := QuoteJSON(tt.in)
		if got != tt.want {
			t.Errorf("QuoteJSON(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if Suspicious(got) {
			t.Errorf("QuoteJSON(%q) = %q holds characters that are not escaped", tt.in, got)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != strings.ToValidUTF8(tt.in, "\ufffd") {
			t.Errorf("QuoteJSON(%q) decodes to %q (%v)", tt.in, back, err)
		}
	}
}
