package model

import (
	"slices"
	"strings"
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

	// index maps a registered name to its position in Routes. It is nil
	// when Routes are in name order, each name once (byName), and a lookup
	// is a binary search.
	index  map[string]int
	byName bool
}

// Lookup returns the route a call to the registered name goes to.
func (r *Registry) Lookup(name string) (Route, bool) {
	if r == nil {
		return Route{}, false
	}
	if r.byName {
		i, ok := slices.BinarySearchFunc(r.Routes, name, func(rt Route, name string) int {
			return strings.Compare(rt.Name, name)
		})
		if !ok {
			return Route{}, false
		}
		return r.Routes[i], true
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
	total  int      // advertised rows in all
	owners []rowRef // parallel to reg.Routes, once the index is made
}

// newBuilder prepares one Outcome per advertised row, each Dropped with no
// reason. A policy must decide every row; finish reports any it forgot.
func newBuilder(policy string, cats []Catalogue) *builder {
	rows := 0
	for _, cat := range cats {
		rows += len(cat.Tools)
	}
	// Sized for every row up front: growing the index and the routes row
	// by row was a fifth of the cost of a policy switch on a large surface.
	// The index is made on first use (withIndex): a policy that registers
	// in name order needs none.
	reg := &Registry{
		Policy:  policy,
		Servers: make([]ServerResult, len(cats)),
		Routes:  make([]Route, 0, rows),
	}
	for ci, cat := range cats {
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
	return &builder{cats: cats, reg: reg, total: rows}
}

// withIndex makes the name index, sized for every row, the first time a
// policy registers by name.
func (b *builder) withIndex() {
	if b.reg.index == nil {
		if b.reg.byName {
			panic("model: a policy mixed registering in name order with registering by lookup")
		}
		b.reg.index = make(map[string]int, b.total)
		b.owners = make([]rowRef, 0, b.total)
	}
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
	b.withIndex()
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

// claim makes ref live under name unless a route holds it already, in
// which case it returns the holder and changes nothing: first wins, with
// one lookup of the name rather than one to ask and another to register.
func (b *builder) claim(name string, ref rowRef) (holder rowRef, held bool) {
	b.withIndex()
	if i, ok := b.reg.index[name]; ok {
		return b.owners[i], true
	}
	b.insert(name, ref)
	return rowRef{}, false
}

// insert makes ref live under a name the caller knows no route holds, as
// register does, without looking the name up again: a policy that has
// already checked it saves a map access per row.
func (b *builder) insert(name string, ref rowRef) {
	o := b.outcome(ref)
	o.Name = name
	o.Kind = live(name, o.Wire)
	b.withIndex()
	b.reg.index[name] = len(b.reg.Routes)
	b.reg.Routes = append(b.reg.Routes, Route{Name: name, Server: b.label(ref), Wire: o.Wire, Index: ref.row})
	b.owners = append(b.owners, ref)
}

// appendSorted makes ref live under name, which must sort after every name
// registered before it: the routes stay in name order and are looked up by
// binary search, without an index. The caller has set the outcome's Name
// and Kind.
func (b *builder) appendSorted(name string, ref rowRef) {
	if b.reg.index != nil || len(b.reg.Routes) > 0 && b.reg.Routes[len(b.reg.Routes)-1].Name >= name {
		panic("model: appendSorted out of name order, or after registering by lookup")
	}
	b.reg.byName = true
	b.reg.Routes = append(b.reg.Routes, Route{Name: name, Server: b.label(ref), Wire: b.cats[ref.cat].Tools[ref.row].Name, Index: ref.row})
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

// usable reports whether the row has a name a policy can register and the
// config lets it reach one. An empty name is never usable, whatever NameOK
// says.
func (t *Tool) usable() bool { return t.named() && t.FilteredBy == "" }

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
	}
	return b.reg
}

// missing lists, sorted and each once, the usable wire names of tools that
// no live outcome carries. It uses no map: the names of rows that are not
// live are sorted and compacted, and a name one row left dead and another
// made live (a server listing it twice) is then found by binary search.
func missing(tools []Tool, outcomes []Outcome) []string {
	var names []string
	for i := range tools {
		if tools[i].usable() && !outcomes[i].Live() {
			names = append(names, tools[i].Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) == len(tools) {
		return names // no row is live
	}
	var live []bool // names[i] has a live row after all
	for _, o := range outcomes {
		if !o.Live() {
			continue
		}
		if i, found := slices.BinarySearch(names, o.Wire); found {
			if live == nil {
				live = make([]bool, len(names))
			}
			live[i] = true
		}
	}
	if live == nil {
		return names
	}
	kept := names[:0]
	for i, n := range names {
		if !live[i] {
			kept = append(kept, n)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}

// qualifyAll returns prefix + the name of every usable row of cat (""
// for the others), cut from one string: a policy names every row on every
// switch, and a string per row was thousands of small allocations.
func qualifyAll(cat Catalogue, prefix string) []string {
	size := 0
	for i := range cat.Tools {
		if t := &cat.Tools[i]; t.usable() {
			size += len(prefix) + len(t.Name)
		}
	}
	var sb strings.Builder
	sb.Grow(size)
	for i := range cat.Tools {
		if t := &cat.Tools[i]; t.usable() {
			sb.WriteString(prefix)
			sb.WriteString(t.Name)
		}
	}
	all, at := sb.String(), 0
	names := make([]string, len(cat.Tools))
	for i := range cat.Tools {
		if t := &cat.Tools[i]; t.usable() {
			n := len(prefix) + len(t.Name)
			names[i], at = all[at:at+n], at+n
		}
	}
	return names
}
