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
	// The catalogues advertising each wire name, each once, in order: the
	// first, then any others (most names have none, and allocate nothing).
	type advertisers struct {
		first  int
		others []int
	}
	ads := make(map[string]advertisers, b.total)
	for ci, cat := range b.cats {
		for i := range cat.Tools {
			t := &cat.Tools[i]
			if !t.usable() {
				continue
			}
			a, seen := ads[t.Name]
			switch {
			case !seen:
				ads[t.Name] = advertisers{first: ci}
			case a.first != ci && (len(a.others) == 0 || a.others[len(a.others)-1] != ci):
				a.others = append(a.others, ci)
				ads[t.Name] = a
			}
		}
	}
	// Why each shared name is qualified, written once per name: a name on
	// every server would otherwise cost servers × servers.
	why := make(map[string]string)
	for name, a := range ads {
		if len(a.others) == 0 {
			continue
		}
		labels := []string{b.cats[a.first].Server}
		for _, ci := range a.others {
			labels = append(labels, b.cats[ci].Server)
		}
		why[name] = fmt.Sprintf("%s is advertised by %d servers (%s): qualified",
			name, len(labels), strings.Join(labels, ", "))
	}
	b.rows(func(ref rowRef, t *Tool) {
		if b.unusable(ref) {
			return
		}
		reason, shared := why[t.Name]
		exposed := t.Name
		if shared {
			exposed = b.label(ref) + symfonicSeparator + t.Name
		}
		if holder, held := b.register(exposed, ref, firstWins); held {
			b.drop(ref, fmt.Sprintf("name %s already claimed by route on server %s",
				exposed, b.label(holder)), b.label(holder))
			return
		}
		b.outcome(ref).Reason = reason
	})
}
