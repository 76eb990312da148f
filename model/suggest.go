package model

import (
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"
)

// maxSuggestions bounds the names a "did you mean" offers.
const maxSuggestions = 3

// Suggest returns the names of r closest to name, for an unknown NAME's
// "did you mean": the registered names and the wire names of live rows,
// within an edit distance of a third of name's length (at least 2), or
// containing name, or contained in it; nearest first, at most
// maxSuggestions.
func (r *Registry) Suggest(name string) []string {
	type near struct {
		name string
		d    int
	}
	var found []near
	seen := map[string]bool{}
	consider := func(c string) {
		if c == "" || c == name || seen[c] {
			return
		}
		seen[c] = true
		d := levenshtein.ComputeDistance(strings.ToLower(name), strings.ToLower(c))
		switch {
		case d <= max(2, len(name)/3):
		case len(name) >= 3 && (strings.Contains(c, name) || strings.Contains(name, c)):
			d = len(c) // after the near misses
		default:
			return
		}
		found = append(found, near{c, d})
	}
	for _, rt := range r.Routes {
		consider(rt.Name)
	}
	for _, s := range r.Servers {
		for _, o := range s.Outcomes {
			if o.Live() {
				consider(o.Wire)
			}
		}
	}
	slices.SortStableFunc(found, func(a, b near) int { return a.d - b.d })
	var out []string
	for _, f := range found[:min(len(found), maxSuggestions)] {
		out = append(out, f.name)
	}
	return out
}
