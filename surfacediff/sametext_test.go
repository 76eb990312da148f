package surfacediff

import (
	"strings"
	"testing"
)

// TestSameText compares long texts through the memo: equal and unequal
// pairs at distinct places, the same pair again, and a prefix of a pair
// already compared, which the memo must not answer for.
func TestSameText(t *testing.T) {
	c := &comparison{same: map[textPair]bool{}}
	a := strings.Repeat("alpha, ", 100)
	b := strings.Clone(a)
	d := a[:len(a)-1] + "!"
	tests := []struct {
		name string
		x, y string
		want bool
	}{
		{"equal, apart", a, b, true},
		{"equal again", a, b, true},
		{"one byte differs", a, d, false},
		{"one byte differs again", a, d, false},
		{"prefixes of a compared pair", a[:300], d[:300], true},
		{"short", "x", "x", true},
		{"lengths differ", a, a[:400], false},
	}
	for _, tt := range tests {
		if got := c.sameText(tt.x, tt.y); got != tt.want {
			t.Errorf("%s: sameText = %v, want %v", tt.name, got, tt.want)
		}
	}
}
