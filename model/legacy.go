package model

// The lionagi-legacy policies are lionagi's registry before ADR-0112: every
// tool registers under its bare wire name in one flat registry, servers in
// declaration order. They exist in mcplens to show the defect the ADR
// measured, not as advice.

// applyLegacy is update=False: a name already taken is skipped, so a later
// server's tool silently registers nothing and the first-declared server
// keeps the name (ADR-0112 P1, P2).
func applyLegacy(b *builder) {
	b.rows(func(ref rowRef, t *Tool) {
		if b.unusable(ref) {
			return
		}
		if holder, held := b.register(t.Name, ref, firstWins); held {
			b.drop(ref, legacyTakenReason(b, holder, ref, t.Name), b.label(holder))
		}
	})
}

// applyLegacyUpdate is update=True: a later server overwrites, and calls a
// caller believes go to the first server go to the last one (the shadowing
// shape of ADR-0112 P8).
func applyLegacyUpdate(b *builder) {
	b.rows(func(ref rowRef, t *Tool) {
		if b.unusable(ref) {
			return
		}
		b.overwrite(t.Name, ref)
	})
}

func legacyTakenReason(b *builder, holder, ref rowRef, name string) string {
	reason := "name taken by " + b.label(holder)
	if holder.cat == ref.cat {
		reason += "; this server lists " + name + " more than once"
	}
	return reason
}
