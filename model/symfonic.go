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
	// The catalogues advertising each wire name, each once, in order.
	advertisers := make(map[string][]int)
	for ci, cat := range b.cats {
		for i := range cat.Tools {
			if t := &cat.Tools[i]; t.usable() {
				cats := advertisers[t.Name]
				if len(cats) == 0 || cats[len(cats)-1] != ci {
					advertisers[t.Name] = append(cats, ci)
				}
			}
		}
	}
	// Written once per shared name: a name on every server would otherwise
	// cost servers × servers.
	why := make(map[string]string)
	b.rows(func(ref rowRef, t *Tool) {
		if b.unusable(ref) {
			return
		}
		cats := advertisers[t.Name]
		exposed := t.Name
		if len(cats) > 1 {
			exposed = b.label(ref) + symfonicSeparator + t.Name
		}
		o := b.outcome(ref)
		o.Name = exposed
		if holder, held := b.register(exposed, ref, firstWins); held {
			b.drop(ref, fmt.Sprintf("name %s already claimed by route on server %s",
				exposed, b.label(holder)), b.label(holder))
			return
		}
		if len(cats) > 1 {
			if _, ok := why[t.Name]; !ok {
				labels := make([]string, len(cats))
				for i, ci := range cats {
					labels[i] = b.cats[ci].Server
				}
				why[t.Name] = fmt.Sprintf("%s is advertised by %d servers (%s): qualified",
					t.Name, len(labels), strings.Join(labels, ", "))
			}
			o.Reason = why[t.Name]
		}
	})
}
