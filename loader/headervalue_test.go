package loader

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzHeaderValue: whatever string an argument or a name holds, its header
// value is visible ASCII and spaces, never at an edge, and the encoded
// form decodes back to it.
func FuzzHeaderValue(f *testing.F) {
	for _, s := range []string{"us-west1", "Hello, 世界", " padded ", "line1\r\nline2", "a\tb", "=?base64?x?=", "", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, err := json.Marshal(s)
		if err != nil {
			return
		}
		v, ok := headerValue(raw)
		if !ok {
			t.Fatalf("headerValue(%q) not ok", s)
		}
		for _, c := range []byte(v) {
			if c < 0x20 || c > 0x7e {
				t.Fatalf("headerValue(%q) = %q: byte %#x", s, v, c)
			}
		}
		if strings.TrimSpace(v) != v {
			t.Fatalf("headerValue(%q) = %q: space at an edge", s, v)
		}
		var decoded string
		_ = json.Unmarshal(raw, &decoded) // what the body carries (invalid UTF-8 repaired)
		if inner, ok := strings.CutPrefix(v, "=?base64?"); ok && strings.HasSuffix(inner, "?=") {
			b, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(inner, "?="))
			if err != nil || string(b) != decoded {
				t.Fatalf("headerValue(%q) = %q decodes to %q, %v", s, v, b, err)
			}
		} else if v != decoded {
			t.Fatalf("headerValue(%q) = %q, want it as it is", s, v)
		}
	})
}

func TestHeaderValueNumbers(t *testing.T) {
	tests := []struct {
		raw, want string
		ok        bool
	}{
		{`42`, "42", true}, {`-7`, "-7", true}, {`42.0`, "42", true}, {`1e3`, "1000", true},
		{`9007199254740991`, "9007199254740991", true}, {`-9007199254740991`, "-9007199254740991", true},
		{`9007199254740992`, "", false}, {`1e300`, "", false}, {`3.14`, "", false},
		{`true`, "true", true}, {`false`, "false", true}, {`null`, "", false}, {`{}`, "", false}, {`[1]`, "", false}, {``, "", false},
	}
	for _, tt := range tests {
		if got, ok := headerValue(json.RawMessage(tt.raw)); got != tt.want || ok != tt.ok {
			t.Errorf("headerValue(%s) = %q, %v; want %q, %v", tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}
