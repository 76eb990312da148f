package model

import (
	"cmp"
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
// sees. mcplens sorts by byte order (the names are ASCII) and breaks ties by
// declaration order, so among rows wanting one name the first declared wins,
// whatever collation the client uses.
func applyClaudeCode(b *builder) {
	type claim struct {
		name string
		ref  rowRef
	}
	claims := make([]claim, 0, b.total)
	for ci, cat := range b.cats {
		prefix := "mcp__" + replaceUnits(cat.Server, openAIUnits) + "__"
		labelBad := ""
		if r, bad := firstUnitOutside(cat.Server, openAIUnits); bad {
			labelBad = fmt.Sprintf("sanitized: %q is outside [a-zA-Z0-9_-]", r)
		}
		for i := range cat.Tools {
			ref := rowRef{ci, i}
			if b.unusable(ref) {
				continue
			}
			wire := cat.Tools[i].Name
			tool := replaceUnits(wire, openAIUnits)
			claims = append(claims, claim{prefix + tool, ref})
			// A row that loses its name is dropped, which replaces this.
			o := b.outcome(ref)
			if o.Reason = labelBad; o.Reason == "" && tool != wire {
				r, _ := firstUnitOutside(wire, openAIUnits)
				o.Reason = fmt.Sprintf("sanitized: %q is outside [a-zA-Z0-9_-]", r)
			}
		}
	}
	// Ties go to the first declared row.
	slices.SortFunc(claims, func(x, y claim) int {
		if c := strings.Compare(x.name, y.name); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(x.ref.cat, y.ref.cat), cmp.Compare(x.ref.row, y.ref.row))
	})
	for _, c := range claims {
		if holder, held := b.register(c.name, c.ref, firstWins); held {
			b.drop(c.ref, fmt.Sprintf("name %s already taken by server %s (tool %s); "+
				"claude-code keeps the first after sorting by name and drops the rest without a warning",
				c.name, b.label(holder), b.outcome(holder).Wire), b.label(holder))
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
	return "mcp__" + replaceUnits(server, openAIUnits) + "__" + replaceUnits(tool, openAIUnits)
}
