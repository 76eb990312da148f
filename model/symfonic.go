package model

import (
	"fmt"
	"strings"
)

// symfonicSeparator joins server and tool in a qualified symfonic name. It is
// rejected by the OpenAI, Anthropic and Bedrock rules; the provider checks
// show that.
const symfonicSeparator = "."

// applySymfonic is symfonic's routing: a wire name advertised by exactly one
// server keeps its bare name; one advertised by more than one server becomes
// {server}.{tool} for every server advertising it, so no server is quietly
// favoured. Servers are counted, not rows: one server listing a name twice
// is not a cross-server collision. If an exposed name is still claimed
// twice, the route discovered first is kept and the other row dropped with a
// warning. A row without a usable name is dropped alone.
func applySymfonic(b *builder) {
	// Each distinct wire name is counted once per server advertising it,
	// under a number the second pass reads back per row without hashing
	// the name again. Only a shared name gets a shared entry.
	type wireName struct {
		lastCat int32 // the last catalogue that counted it
		shared  int32 // 1 + its position in shared, or 0
	}
	type sharedName struct {
		cats []int  // the catalogues advertising it
		why  string // why its rows are qualified, once written
	}
	ids := make(map[string]int32, b.total)
	names := make([]wireName, 0, b.total)
	var shared []sharedName
	rowID := make([][]int32, len(b.cats))
	for ci, cat := range b.cats {
		rowID[ci] = make([]int32, len(cat.Tools))
		for i := range cat.Tools {
			t := &cat.Tools[i]
			if !t.usable() {
				continue
			}
			id, seen := ids[t.Name]
			if !seen {
				id = int32(len(names))
				ids[t.Name] = id
				names = append(names, wireName{lastCat: int32(ci)})
			}
			rowID[ci][i] = id
			if n := &names[id]; seen && n.lastCat != int32(ci) {
				if n.shared == 0 {
					shared = append(shared, sharedName{cats: []int{int(n.lastCat)}})
					n.shared = int32(len(shared))
				}
				sh := &shared[n.shared-1]
				sh.cats = append(sh.cats, ci)
				n.lastCat = int32(ci)
			}
		}
	}

	b.rows(func(ref rowRef, t *Tool) {
		if b.unusable(ref) {
			return
		}
		n := names[rowID[ref.cat][ref.row]]
		exposed := t.Name
		if n.shared != 0 {
			exposed = b.label(ref) + symfonicSeparator + t.Name
		}
		o := b.outcome(ref)
		o.Name = exposed
		if holder, held := b.claim(exposed, ref); held {
			b.drop(ref, fmt.Sprintf("name %s already claimed by route on server %s",
				exposed, b.label(holder)), b.label(holder))
			return
		}
		if n.shared != 0 {
			// Written once per name: a name on every server would otherwise
			// cost servers × servers.
			sh := &shared[n.shared-1]
			if sh.why == "" {
				labels := make([]string, len(sh.cats))
				for i, ci := range sh.cats {
					labels[i] = b.cats[ci].Server
				}
				sh.why = fmt.Sprintf("%s is advertised by %d servers (%s): qualified",
					t.Name, len(labels), strings.Join(labels, ", "))
			}
			o.Reason = sh.why
		}
	})
}
