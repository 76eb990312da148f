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
	// Each label is sanitized and checked once, not once per row.
	prefixes := make([]string, len(b.cats))
	labelBad := make([]string, len(b.cats))
	widest := 0
	for ci, cat := range b.cats {
		prefixes[ci] = "mcp__" + replaceUnits(cat.Server, openAIUnits) + "__"
		if r, bad := firstUnitOutside(cat.Server, openAIUnits); bad {
			labelBad[ci] = fmt.Sprintf("sanitized: %q is outside [a-zA-Z0-9_-]", r)
		}
		widest = max(widest, len(cat.Tools))
	}
	// Sorting every name against every other was most of this policy's
	// cost, and most of those comparisons are decided by the prefix: when
	// no server's prefix begins another's, all of its names sort together.
	// So the servers are put in prefix order and grouped, a group being a
	// prefix and those it begins (equal ones included), whose names can
	// interleave. Each group is named, sorted and registered in turn, while
	// its rows are still in the cache.
	order := make([]int, len(b.cats))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return strings.Compare(prefixes[x], prefixes[y]) })
	claims := make([]claudeClaim, 0, widest)
	for len(order) > 0 {
		n := 1
		for n < len(order) && strings.HasPrefix(prefixes[order[n]], prefixes[order[0]]) {
			n++
		}
		claims = claudeClaims(b, order[:n], prefixes, labelBad, claims[:0])
		// Stable by name: ties go to the first declared row.
		slices.SortFunc(claims, func(x, y claudeClaim) int {
			if c := strings.Compare(x.name, y.name); c != 0 {
				return c
			}
			if x.ref.cat != y.ref.cat {
				return x.ref.cat - y.ref.cat
			}
			return x.ref.row - y.ref.row
		})
		// Sorted, the claims to one name are adjacent: the first of each
		// run holds the name, and the routes come out in name order, so the
		// registry needs no index to look a name up.
		var holder *claudeClaim
		for i := range claims {
			c := &claims[i]
			if holder != nil && holder.name == c.name {
				b.drop(c.ref, fmt.Sprintf("name %s already taken by server %s (tool %s); "+
					"claude-code keeps the first after sorting by name and drops the rest without a warning",
					c.name, b.label(holder.ref), holder.wire), b.label(holder.ref))
				continue
			}
			holder = c
			b.appendSorted(c.name, c.ref)
		}
		order = order[n:]
	}
	for i := range b.reg.Servers {
		separatorNote(&b.reg.Servers[i])
	}
}

// A claudeClaim is a row wanting a name under claude-code.
type claudeClaim struct {
	name, wire string
	ref        rowRef
}

// claudeClaims appends to claims the usable rows of the catalogues cats,
// each with its name, and writes the name and any sanitizing note on the
// row's outcome. The group's names are cut from one string: a string per
// row was 20,000 allocations per switch, scattered in memory for the sort.
func claudeClaims(b *builder, cats []int, prefixes, labelBad []string, claims []claudeClaim) []claudeClaim {
	size := 0
	for _, ci := range cats {
		for row := range b.cats[ci].Tools {
			ref := rowRef{ci, row}
			if b.unusable(ref) {
				continue
			}
			wire := b.cats[ci].Tools[row].Name
			tool := replaceUnits(wire, openAIUnits)
			claims = append(claims, claudeClaim{name: tool, wire: wire, ref: ref})
			size += len(prefixes[ci]) + len(tool)
			// A row that loses its name is dropped, which replaces this.
			o := b.outcome(ref)
			if o.Reason = labelBad[ci]; o.Reason == "" && tool != wire {
				r, _ := firstUnitOutside(wire, openAIUnits)
				o.Reason = fmt.Sprintf("sanitized: %q is outside [a-zA-Z0-9_-]", r)
			}
		}
	}
	var sb strings.Builder
	sb.Grow(size)
	for _, c := range claims {
		sb.WriteString(prefixes[c.ref.cat])
		sb.WriteString(c.name)
	}
	all, at := sb.String(), 0
	for i := range claims {
		c := &claims[i]
		n := len(prefixes[c.ref.cat]) + len(c.name)
		c.name, at = all[at:at+n], at+n
		o := b.outcome(c.ref)
		o.Name, o.Kind = c.name, live(c.name, c.wire)
	}
	return claims
}

// ClaudeCodeName is Claude Code's name for a tool: "mcp__" + server + "__" +
// tool, with every UTF-16 code unit of server and tool outside
// [a-zA-Z0-9_-] replaced by '_'. It has no length limit.
func ClaudeCodeName(server, tool string) string {
	return "mcp__" + replaceUnits(server, openAIUnits) + "__" + replaceUnits(tool, openAIUnits)
}
