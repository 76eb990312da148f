package model

import (
	"slices"
	"testing"
)

// TestSuggest: near misses first, then names that contain the one asked
// for (or are contained in it), at most maxSuggestions, never the name
// itself; a name far from every registered one has no suggestion.
func TestSuggest(t *testing.T) {
	cats := []Catalogue{
		{Server: "alpha", Tools: []Tool{{Name: "request", NameOK: true}, {Name: "search_issues", NameOK: true}}},
		{Server: "beta", Tools: []Tool{{Name: "requests", NameOK: true}, {Name: "list", NameOK: true}}},
	}
	p, ok := PolicyNamed("qwen")
	if !ok {
		t.Fatal("no qwen policy")
	}
	reg := p.Apply(cats)
	for _, tt := range []struct {
		name string
		want []string
	}{
		// Near misses of the wire names, nearest first.
		{"reqest", []string{"request", "requests"}},
		// Containing it, after the near misses, shortest first.
		{"search", []string{"search_issues", "mcp__alpha__search_issues"}},
		// Never the name itself.
		{"request", []string{"requests", "mcp__alpha__request", "mcp__beta__requests"}},
		{"zzzzzzzzzzzz", nil},
	} {
		if got := reg.Suggest(tt.name); !slices.Equal(got, tt.want) {
			t.Errorf("Suggest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
	many := []Catalogue{{Server: "s", Tools: []Tool{{Name: "aa1", NameOK: true}, {Name: "aa2", NameOK: true}, {Name: "aa3", NameOK: true}, {Name: "aa4", NameOK: true}}}}
	if got := p.Apply(many).Suggest("aa"); len(got) != maxSuggestions {
		t.Errorf("Suggest(aa) over four near names = %q, want %d of them", got, maxSuggestions)
	}
}
