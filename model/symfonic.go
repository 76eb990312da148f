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
	rows := 0
	for _, cat := range b.cats {
		rows += len(cat.Tools)
	}
	advertisers := make(map[string][]string, rows) // wire name -> labels, first-seen order
	lastCat := make(map[string]int, rows)          // wire name -> last catalogue counted
	for ci, cat := range b.cats {
		for i := range cat.Tools {
			t := &cat.Tools[i]
			if !t.usable() {
				continue
			}
			if last, seen := lastCat[t.Name]; seen && last == ci {
				continue
			}
			lastCat[t.Name] = ci
			advertisers[t.Name] = append(advertisers[t.Name], cat.Server)
		}
	}

	why := make(map[string]string) // wire name -> the reason its rows are qualified
	b.rows(func(ref rowRef, t *Tool) {
		if b.unusable(ref) {
			return
		}
		exposed := t.Name
		shared := advertisers[t.Name]
		if len(shared) > 1 {
			exposed = b.label(ref) + symfonicSeparator + t.Name
		}
		o := b.outcome(ref)
		o.Name = exposed
		if holder, ok := b.taken(exposed); ok {
			b.drop(ref, fmt.Sprintf("name %s already claimed by route on server %s",
				exposed, b.label(holder)), b.label(holder))
			return
		}
		b.register(exposed, ref)
		if len(shared) > 1 {
			// Written once per name: a name on every server would otherwise
			// cost servers × servers.
			r, ok := why[t.Name]
			if !ok {
				r = fmt.Sprintf("%s is advertised by %d servers (%s): qualified",
					t.Name, len(shared), strings.Join(shared, ", "))
				why[t.Name] = r
			}
			o.Reason = r
		}
	})
}
