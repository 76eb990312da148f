package loader

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// factsOf keeps what a server said of itself, its instructions bounded on
// a rune boundary.
func TestFactsOf(t *testing.T) {
	init := &mcp.InitializeResult{
		ServerInfo:   mcp.Implementation{Name: "n", Title: "T", WebsiteURL: "https://x.test"},
		Instructions: "a" + strings.Repeat("é", maxInstructions), // the bound falls inside a rune
	}
	init.Capabilities.Tools = &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{ListChanged: true}
	init.Capabilities.Logging = &struct{}{}
	init.Capabilities.Experimental = map[string]any{"b": 1, "a": 2}
	f := factsOf(init)
	if want := []string{"tools(listChanged)", "logging", "experimental(a,b)"}; !slices.Equal(f.Capabilities, want) {
		t.Errorf("capabilities = %q, want %q", f.Capabilities, want)
	}
	if f.Title != "T" || f.Website != "https://x.test" {
		t.Errorf("title %q, website %q", f.Title, f.Website)
	}
	if !f.Cut || len(f.Instructions) > maxInstructions || !utf8.ValidString(f.Instructions) {
		t.Errorf("instructions: %d bytes, cut %v, valid %v", len(f.Instructions), f.Cut, utf8.ValidString(f.Instructions))
	}
	if f := factsOf(&mcp.InitializeResult{Instructions: "short"}); f.Cut || f.Instructions != "short" || f.Capabilities != nil {
		t.Errorf("factsOf(short) = %+v", f)
	}
}
