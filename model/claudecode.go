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
	var claims []claim
	b.rows(func(ref rowRef, t Tool) {
		if b.unusable(ref) {
			return
		}
		name := ClaudeCodeName(b.label(ref), t.Name)
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
	for _, c := range claims {
		if holder, ok := b.taken(c.name); ok {
			b.drop(c.ref, fmt.Sprintf("name %s already taken by server %s (tool %s); "+
				"claude-code keeps the first after sorting by name and drops the rest without a warning",
				c.name, b.label(holder), b.outcome(holder).Wire), b.label(holder))
			continue
		}
		b.register(c.name, c.ref)
		t := b.cats[c.ref.cat].Tools[c.ref.row]
		if r, bad := firstUnitOutside(b.label(c.ref)+t.Name, isOpenAIChar); bad {
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
