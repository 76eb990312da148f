package loader

import "testing"

func TestTidyText(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"doubled", "transport error: failed to send request: failed to send request: Post \"http://x\": dial tcp: refused",
			"transport error: failed to send request: Post \"http://x\": dial tcp: refused"},
		{"tripled", "a: b: b: b: c", "a: b: c"},
		{"apart", "a: b: a: b", "a: b: a: b"},
		{"one", "refused", "refused"},
	} {
		if got := tidyText(tt.in); got != tt.want {
			t.Errorf("%s: tidyText(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}
