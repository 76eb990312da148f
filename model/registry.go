package model

import (
	"fmt"
	"slices"
)

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

	index map[string]int // registered name -> position in Routes
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
	for i := range r.Servers {
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
type builder struct {
	cats   []Catalogue
	reg    *Registry
	owners []rowRef // parallel to reg.Routes
}

// newBuilder prepares one Outcome per advertised row, each Dropped with no
// reason. A policy must decide every row; finish reports any it forgot.
func newBuilder(policy string, cats []Catalogue) *builder {
	reg := &Registry{
		Policy:  policy,
		Servers: make([]ServerResult, len(cats)),
		index:   make(map[string]int),
	}
	for ci, cat := range cats {
		sr := &reg.Servers[ci]
		sr.Server = cat.Server
		sr.Advertised = len(cat.Tools)
		sr.Outcomes = make([]Outcome, len(cat.Tools))
		for i, t := range cat.Tools {
			o := Outcome{Server: cat.Server, Index: i, Kind: Dropped}
			if t.usable() {
				o.Wire = t.Name
			}
			sr.Outcomes[i] = o
		}
	}
	return &builder{cats: cats, reg: reg}
}

func (b *builder) outcome(ref rowRef) *Outcome {
	return &b.reg.Servers[ref.cat].Outcomes[ref.row]
}

func (b *builder) label(ref rowRef) string { return b.cats[ref.cat].Server }

// taken returns the row currently holding the registered name.
func (b *builder) taken(name string) (rowRef, bool) {
	i, ok := b.reg.index[name]
	if !ok {
		return rowRef{}, false
	}
	return b.owners[i], true
}

// register makes ref live under name. When the name is already held, the
// holder is replaced in place and returned, and the caller decides what the
// displaced row's outcome says.
func (b *builder) register(name string, ref rowRef) (prev rowRef, replaced bool) {
	o := b.outcome(ref)
	o.Name = name
	o.Kind = live(name, o.Wire)
	rt := Route{Name: name, Server: b.label(ref), Wire: o.Wire, Index: ref.row}
	if i, ok := b.reg.index[name]; ok {
		prev = b.owners[i]
		b.reg.Routes[i] = rt
		b.owners[i] = ref
		return prev, true
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
	prev, replaced := b.register(name, ref)
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

// usable reports whether the row has a name a policy can register. An empty
// name is never usable, whatever NameOK says.
func (t Tool) usable() bool { return t.NameOK && t.Name != "" }

// unusable drops a row without a usable name. It reports whether it did, so
// a policy's loop can skip the row.
func (b *builder) unusable(ref rowRef) bool {
	t := b.cats[ref.cat].Tools[ref.row]
	if t.usable() {
		return false
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
		liveWire := make(map[string]bool)
		sr.Registered = 0
		for i := range sr.Outcomes {
			o := &sr.Outcomes[i]
			switch {
			case o.Live():
				sr.Registered++
				liveWire[o.Wire] = true
			case o.Kind == Displaced && o.Reason == "":
				now := "another route"
				if rt, ok := b.reg.Lookup(o.Name); ok {
					now = rt.Server
				}
				o.Reason = fmt.Sprintf("overwritten by %s; calls to %s now go to %s", o.By, o.Name, now)
			case o.Kind == Dropped && o.Reason == "":
				o.Reason = "not registered by policy " + b.reg.Policy
			}
		}
		sr.Missing = nil
		for _, t := range b.cats[ci].Tools {
			if t.usable() && !liveWire[t.Name] {
				liveWire[t.Name] = true // report each name once
				sr.Missing = append(sr.Missing, t.Name)
			}
		}
		slices.Sort(sr.Missing)
	}
	return b.reg
}
