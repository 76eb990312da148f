package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/model"
)

// TestResultContentSanitized: whatever a result holds, what is drawn holds
// no escape sequence, control or hidden character of the server's, and no
// secret of the config; text stays text, one line per line.
func TestResultContentSanitized(t *testing.T) {
	c := common{width: 80, height: 24, styles: DefaultStyles(true), keys: DefaultKeyMap(), redact: model.NewRedactor("s3cr3t-t0ken-value")}
	tests := []struct {
		name   string
		result string
		want   []string // lines drawn, styles stripped
	}{
		{"escapes in text", `{"content":[{"type":"text","text":"red \u001b[31malert\u001b[0m\nline two\tend"}]}`,
			[]string{`red \x1b[31malert\x1b[0m`, "line two    end"}},
		{"bidi and secret", `{"content":[{"type":"text","text":"key \u202es3cr3t-t0ken-value"}]}`,
			[]string{`key \u202e****`}},
		{"resource link", `{"content":[{"type":"resource_link","uri":"file:///x\u001b]0;pwn\u0007","name":"n","size":5}]}`,
			[]string{`resource link file:///x\x1b]0;pwn\a`, "  n · 5 B"}},
		{"unknown kind", `{"content":[{"type":"hologram","depth":3}]}`,
			[]string{"{", `  "type": "hologram",`, `  "depth": 3`, "}"}},
		{"image not base64", `{"content":[{"type":"image","mimeType":"image/png","data":"@@"}]}`,
			[]string{"image image/png: its data is not base64 (2 characters)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines, _ := c.resultContent(json.RawMessage(tt.result))
			var got []string
			for _, l := range lines {
				plain := ansi.Strip(l)
				if strings.ContainsAny(plain, "\x1b\a\u202e\t") {
					t.Errorf("line %q holds a control or hidden character", plain)
				}
				got = append(got, plain)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("resultContent(%s) =\n%q\nwant\n%q", tt.result, got, tt.want)
			}
		})
	}
}

func TestHumanSize(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1946, "1.9 KB"}, {3 << 20, "3.0 MB"}} {
		if got := humanSize(tt.n); got != tt.want {
			t.Errorf("humanSize(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
