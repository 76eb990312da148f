package model

import "slices"

// A Registry is the tool surface one policy builds from a set of catalogues:
// the flat table a client hands to the model, plus the per-server breakdown
// that says what happened to every advertised row.
type Registry struct {
	// Policy is the name of the policy that built the registry.
	Policy string
	// Servers has one entry per catalogue, in the order the catalogues were
	// given (the config's declaration order).
	Servers []ServerResult
	// Routes is the merged registry in registration order: what the model
	// sees. A name overwritten by a later route keeps its first position, as
	// an insertion-ordered map does.
	Routes []Route

	// index maps a registered name to its position in Routes.
	index map[string]int
	// servers maps a label to its first position in Servers, so that
	// looking each server up is linear in the servers, not quadratic.
	servers map[string]int
}

// Lookup returns the route a call to the registered name goes to.
func (r *Registry) Lookup(name string) (Route, bool) {
	if r == nil {
		return Route{}, false
	}
	i, ok := r.index[name]
	if !ok {
		return Route{}, false
	}
	return r.Routes[i], true
}

// Server returns the result for the server label. Labels are unique in a
// config; should two catalogues share one, the first is returned.
func (r *Registry) Server(label string) (*ServerResult, bool) {
	if r == nil {
		return nil, false
	}
	if r.servers != nil {
		i, ok := r.servers[label]
		if !ok {
			return nil, false
		}
		return &r.Servers[i], true
	}
	for i := range r.Servers { // a registry not built by a policy
		if r.Servers[i].Server == label {
			return &r.Servers[i], true
		}
	}
	return nil, false
}

// A rowRef addresses one advertised row: catalogue position, row position.
// Policies work with positions rather than labels so that two catalogues
// under one label (a loader bug, or fuzz input) stay distinct.
type rowRef struct{ cat, row int }

// A builder is the shared machinery every policy uses to fill a Registry,
// so that the postcondition fields mean the same thing under each policy.
// A policy names rows and says who wins a name; register is the one way a
// name gets into the registry.
type builder struct {
	cats   []Catalogue
	reg    *Registry
	owners []rowRef // parallel to reg.Routes: the row each route goes to
	total  int      // advertised rows in all
}

// newBuilder prepares one Outcome per advertised row, each Dropped with no
// reason. A policy must decide every row; finish reports any it forgot.
func newBuilder(policy string, cats []Catalogue) *builder {
	rows := 0
	for _, cat := range cats {
		rows += len(cat.Tools)
	}
	reg := &Registry{
		Policy:  policy,
		Servers: make([]ServerResult, len(cats)),
		Routes:  make([]Route, 0, rows),
		servers: make(map[string]int, len(cats)),
	}
	for ci, cat := range cats {
		if _, dup := reg.servers[cat.Server]; !dup {
			reg.servers[cat.Server] = ci
		}
		sr := &reg.Servers[ci]
		sr.Server = cat.Server
		sr.Advertised = len(cat.Tools)
		sr.Outcomes = make([]Outcome, len(cat.Tools))
		for i := range cat.Tools {
			o := &sr.Outcomes[i]
			o.Server, o.Index, o.Kind = cat.Server, i, Dropped
			if t := &cat.Tools[i]; t.named() {
				o.Wire = t.Name
			}
		}
	}
	return &builder{cats: cats, reg: reg, owners: make([]rowRef, 0, rows), total: rows}
}

func (b *builder) outcome(ref rowRef) *Outcome {
	return &b.reg.Servers[ref.cat].Outcomes[ref.row]
}

func (b *builder) label(ref rowRef) string { return b.cats[ref.cat].Server }

// holder returns the row whose route holds the registered name.
func (b *builder) holder(name string) (rowRef, bool) {
	i, ok := b.reg.index[name]
	if !ok {
		return rowRef{}, false
	}
	return b.owners[i], true
}

// A rule says which of two rows wanting one name keeps it.
type rule bool

const (
	firstWins rule = false
	lastWins  rule = true
)

// register gives ref the name and makes it live under it, unless another
// row's route holds the name. Then under firstWins nothing else changes;
// under lastWins ref's route replaces the holder's in place (the name keeps
// its first position, as in an insertion-ordered map). Either way the other
// row is returned, and the caller says what the loser's outcome says.
func (b *builder) register(name string, ref rowRef, r rule) (other rowRef, clash bool) {
	o := b.outcome(ref)
	o.Name = name
	i, clash := b.reg.index[name]
	if clash && r == firstWins {
		return b.owners[i], true
	}
	o.Kind = live(name, o.Wire)
	rt := Route{Name: name, Server: b.label(ref), Wire: o.Wire, Index: ref.row}
	if clash {
		other = b.owners[i]
		b.reg.Routes[i] = rt
		b.owners[i] = ref
		return other, true
	}
	if b.reg.index == nil { // sized for every row: growing it was a fifth of a switch
		b.reg.index = make(map[string]int, b.total)
	}
	b.reg.index[name] = len(b.reg.Routes)
	b.reg.Routes = append(b.reg.Routes, rt)
	b.owners = append(b.owners, ref)
	return rowRef{}, false
}

// overwrite registers ref under name, last wins, and marks the previous
// holder Displaced by ref's server. Its reason is written by finish, once
// the final holder of the name is known.
func (b *builder) overwrite(name string, ref rowRef) {
	prev, replaced := b.register(name, ref, lastWins)
	if !replaced {
		return
	}
	p := b.outcome(prev)
	p.Kind = Displaced
	p.By = b.label(ref)
	p.Reason = ""
}

// drop records that ref never reached the registry.
func (b *builder) drop(ref rowRef, reason, by string) {
	o := b.outcome(ref)
	o.Kind = Dropped
	o.Reason = reason
	o.By = by
}

// usable reports whether the row has a name a policy can register and the
// config lets it reach one, and the client keeps its definition (not
// Rejected). An empty name is never usable, whatever NameOK
// says.
func (t *Tool) usable() bool {
	return t.named() && t.FilteredBy == "" && t.Rejected == "" && t.withheld == ""
}

// unusable drops a row without a usable name. It reports whether it did, so
// a policy's loop can skip the row.
func (b *builder) unusable(ref rowRef) bool {
	t := &b.cats[ref.cat].Tools[ref.row] // a pointer: a Tool is some 200 bytes, and this runs per row
	if t.usable() {
		return false
	}
	if b.filtered(ref) {
		return true
	}
	if t.Rejected != "" && t.named() {
		b.drop(ref, t.Rejected, "")
		return true
	}
	problem := t.NameProblem
	switch {
	case problem != "":
	case t.NameOK: // a loader that marked an empty name usable
		problem = "empty name"
	default:
		problem = "missing name"
	}
	b.drop(ref, "row has no usable name: "+problem, "")
	return true
}

// finish fills the postcondition fields every policy shares and returns the
// registry.
func (b *builder) finish() *Registry {
	for ci := range b.reg.Servers {
		sr := &b.reg.Servers[ci]
		sr.Registered = 0
		for i := range sr.Outcomes {
			o := &sr.Outcomes[i]
			switch {
			case o.Live():
				sr.Registered++
			case o.Kind == Displaced && o.Reason == "":
				now := "another route"
				if rt, ok := b.reg.Lookup(o.Name); ok {
					now = rt.Server
				}
				o.Reason = "overwritten by " + o.By + "; calls to " + o.Name + " now go to " + now
			case o.Kind == Dropped && o.Reason == "":
				o.Reason = "not registered by policy " + b.reg.Policy
			}
		}
		sr.Missing = missing(b.cats[ci].Tools, sr.Outcomes)
		b.appNotes(ci)
	}
	return b.reg
}

// missing lists, sorted and each once, the usable wire names of tools that
// no live outcome carries. A name one row left dead and another made live
// (a server listing it twice) is not missing.
func missing(tools []Tool, outcomes []Outcome) []string {
	var dead []string
	for i := range tools {
		if tools[i].usable() && !outcomes[i].Live() {
			dead = append(dead, tools[i].Name)
		}
	}
	if len(dead) == 0 {
		return nil
	}
	live := make(map[string]bool)
	for _, o := range outcomes {
		if o.Live() {
			live[o.Wire] = true
		}
	}
	dead = slices.DeleteFunc(dead, func(name string) bool { return live[name] })
	if len(dead) == 0 {
		return nil
	}
	slices.Sort(dead)
	return slices.Compact(dead)
}
