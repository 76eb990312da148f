package mcpsession

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// A recorded initialize answer is as hostile as a live one: megabytes of
// instructions are cut to MaxInstructions on a rune boundary, and
// capabilities of the wrong shape are refused rather than half read.
func TestFactsOfInitializeHostile(t *testing.T) {
	huge := `{"capabilities":{"tools":{}},"serverInfo":{"title":"T"},"instructions":"a` + strings.Repeat("é", 1<<20) + `"}`
	f, err := FactsOfInitialize([]byte(huge))
	if err != nil || !f.Cut || len(f.Instructions) > MaxInstructions || !utf8.ValidString(f.Instructions) || f.Title != "T" {
		t.Errorf("FactsOfInitialize(2 MB of instructions) = %d bytes, cut %v, title %q, %v; want at most %d bytes, cut, valid",
			len(f.Instructions), f.Cut, f.Title, err, MaxInstructions)
	}
	if !slices.Equal(f.Capabilities, []string{"tools"}) {
		t.Errorf("capabilities = %q, want [tools]", f.Capabilities)
	}
	for _, raw := range []string{`{"capabilities":{"tools":5}}`, `{"capabilities":[]}`, `[]`, `{"capabilities":{"logging":"yes"}}`} {
		if f, err := FactsOfInitialize([]byte(raw)); err == nil {
			t.Errorf("FactsOfInitialize(%s) = %+v, nil; want an error", raw, f)
		}
	}
	if f, err := FactsOfInitialize([]byte(`{"capabilities":null}`)); err != nil || f.Capabilities != nil {
		t.Errorf("FactsOfInitialize(null capabilities) = %+v, %v; want none declared", f, err)
	}
}
