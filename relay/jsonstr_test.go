package relay

import (
	"encoding/json"
	"testing"
)

// FuzzAppendString holds appendString to what encoding/json writes.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c", "<&>", "\n\r\t\x00\x1f", "\xff\xfe", "é\u2028\u2029", "日本"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		want, _ := json.Marshal(string(text))
		if got := appendString(nil, text); string(got) != string(want) {
			t.Errorf("appendString(%q) = %s, want %s", text, got, want)
		}
	})
}
