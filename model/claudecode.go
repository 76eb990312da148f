package model

import (
	"fmt"
	"slices"
	"strings"
)

// applyClaudeCode is Claude Code's naming: every tool is mcp__{server}__{tool},
// each part with its code units outside [a-zA-Z0-9_-] replaced by '_'. Names
// are not shortened: an over-long one reaches the provider and fails there,
// which the provider checks show. The tool list is sorted by name and
// de-duplicated keeping the first, without a warning, so servers foo.bar and
// foo_bar that both offer evil leave one mcp__foo_bar__evil.
//
// Rows are registered in name order, so Routes is the sorted list the model
// sees. mcplens sorts by byte order (the names are ASCII); the sort is
// stable, so among rows wanting one name the first declared wins, whatever
// collation the client uses.
func applyClaudeCode(b *builder) {
	type claim struct {
		ref  rowRef
		name string
	}
	// Each label is sanitized once, not once per row.
	prefixes := make([]string, len(b.cats))
	rows := 0
	for ci, cat := range b.cats {
		prefixes[ci] = "mcp__" + replaceUnits(cat.Server, isOpenAIChar) + "__"
		rows += len(cat.Tools)
	}
	claims := make([]claim, 0, rows)
	b.rows(func(ref rowRef, t *Tool) {
		if b.unusable(ref) {
			return
		}
		name := prefixes[ref.cat] + replaceUnits(t.Name, isOpenAIChar)
		b.outcome(ref).Name = name
		claims = append(claims, claim{ref, name})
	})
	// Stable by name: claims were made in row order, which breaks ties.
	slices.SortFunc(claims, func(x, y claim) int {
		if c := strings.Compare(x.name, y.name); c != 0 {
			return c
		}
		if x.ref.cat != y.ref.cat {
			return x.ref.cat - y.ref.cat
		}
		return x.ref.row - y.ref.row
	})
	// Sorted, the claims to one name are adjacent: the first of each run
	// holds the name, without a lookup in the registry per claim.
	var holder *claim
	for i := range claims {
		c := &claims[i]
		if holder != nil && holder.name == c.name {
			b.drop(c.ref, fmt.Sprintf("name %s already taken by server %s (tool %s); "+
				"claude-code keeps the first after sorting by name and drops the rest without a warning",
				c.name, b.label(holder.ref), b.outcome(holder.ref).Wire), b.label(holder.ref))
			continue
		}
		holder = c
		b.insert(c.name, c.ref) // the first claim to its name: it is free
		label, wire := b.label(c.ref), b.cats[c.ref.cat].Tools[c.ref.row].Name
		r, bad := firstUnitOutside(label, isOpenAIChar)
		if !bad {
			r, bad = firstUnitOutside(wire, isOpenAIChar)
		}
		if bad {
			b.outcome(c.ref).Reason = fmt.Sprintf("sanitized: %q is outside [a-zA-Z0-9_-]", r)
		}
	}
	for i := range b.reg.Servers {
		separatorNote(&b.reg.Servers[i])
	}
}

// ClaudeCodeName is Claude Code's name for a tool: "mcp__" + server + "__" +
// tool, with every UTF-16 code unit of server and tool outside
// [a-zA-Z0-9_-] replaced by '_'. It has no length limit.
func ClaudeCodeName(server, tool string) string {
	return "mcp__" + replaceUnits(server, isOpenAIChar) + "__" + replaceUnits(tool, isOpenAIChar)
}
