package surfacediff

import "slices"

// A Diff is what changed from one surface (A) to another (B).
type Diff struct {
	A, B string `json:"-"`
	// Config is the config of side B, where changes are located: the file
	// its snapshot was taken of when B is a snapshot.
	Config string `json:"config"`
	// Policy is the registry compared; "" when one side is a lock, which
	// has no registry: only definitions were compared.
	Policy string `json:"policy"`
	Client string `json:"client,omitempty"`
	// ClientA is the client side A was taken as ("mcplens" for its own
	// handshake), set only when both sides were taken as a client (neither
	// is a lock) and not as the same one: a change may then come from the
	// client alone, since servers advertise tools by client.
	ClientA string   `json:"client_a,omitempty"`
	Changes []Change `json:"changes"`
}

// ClientsDiffer reports whether the two sides were taken as different
// clients.
func (d *Diff) ClientsDiffer() bool { return d.ClientA != "" }

// clientName is a client profile's key, or mcplens for none.
func clientName(key string) string {
	if key == "" {
		return "mcplens"
	}
	return key
}

// Fails reports whether a change of one of the classes is in the diff.
func (d *Diff) Fails(failOn []Class) bool {
	return slices.ContainsFunc(d.Changes, func(c Change) bool { return slices.Contains(failOn, c.Class) })
}

// Count returns how many changes of each class the diff holds.
func (d *Diff) Count() map[Class]int {
	n := map[Class]int{}
	for _, c := range d.Changes {
		n[c.Class]++
	}
	return n
}
