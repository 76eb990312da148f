package surfacediff

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// A Change is one difference between two surfaces.
type Change struct {
	Class  Class  `json:"class"`
	Server string `json:"server"`
	// Tool is the wire name, "" for a change to the server or a
	// server-level finding.
	Tool string `json:"tool,omitempty"`
	// Provider names the provider of a verdict change.
	Provider string `json:"provider,omitempty"`
	// Old and New are the value on each side: a registered name, an
	// outcome, a verdict, a status; a finding's evidence.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
	// Detail says what changed in a sentence.
	Detail string `json:"detail"`
	// Fields says what changed in a definition (DefinitionChanged).
	Fields []Field `json:"fields,omitempty"`
	// Line and Col are where B's config (Diff.Config) declares the
	// server; 0 when it does not (a server removed, a lock, the demo).
	Line int `json:"line,omitempty"`
	Col  int `json:"col,omitempty"`
}

// A Field is one field of a definition that changed (model.FieldChange).
type Field struct {
	Path string `json:"path"`
	Op   string `json:"op"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
}

// String is the change of a field on one line.
func (f Field) String() string {
	return model.FieldChange{Path: f.Path, Op: f.Op, Old: f.Old, New: f.New}.String()
}

// Compare says what changed from a to b under the policy named policy.
// When either side has no registry under it (a lock), only servers and
// definitions are compared.
func Compare(a, b *Document, policy string) *Diff {
	d := &Diff{A: a.Config, B: b.Config, Config: b.Config, Client: b.Client, Changes: []Change{}}
	if a.Policies != nil && b.Policies != nil && a.Client != b.Client {
		d.ClientA = clientName(a.Client)
	}
	pa, okA := a.policy(policy)
	pb, okB := b.policy(policy)
	if okA && okB {
		d.Policy = policy
	} else {
		pa, pb = nil, nil
	}
	c := comparison{d: d, pa: pa, pb: pb, ia: indexOf(pa), ib: indexOf(pb), a: a, b: b, la: labels(a), lb: labels(b), same: map[textPair]bool{}}
	for i := range b.Servers {
		sb := &b.Servers[i]
		if j, ok := c.la[sb.Label]; ok {
			c.server(&a.Servers[j], sb)
			continue
		}
		c.add(Change{Class: ServerAdded, Server: sb.Label, New: sb.Endpoint, Detail: fmt.Sprintf("server %q added: %s", sb.Label, sb.Endpoint)}, sb)
	}
	for i := range a.Servers {
		sa := &a.Servers[i]
		if _, ok := c.lb[sa.Label]; !ok {
			// Located in B's file as a whole: the server is not in it.
			c.add(Change{Class: ServerRemoved, Server: sa.Label, Old: sa.Endpoint,
				Detail: fmt.Sprintf("server %q removed, and its %d tool(s)", sa.Label, len(sa.Tools))}, &Server{})
		}
	}
	if pa != nil {
		c.findings(a, b)
	}
	rank := func(label string) int {
		if i, ok := c.lb[label]; ok {
			return i
		}
		if i, ok := c.la[label]; ok {
			return len(b.Servers) + i
		}
		return len(a.Servers) + len(b.Servers) // the config file's own
	}
	slices.SortStableFunc(d.Changes, func(x, y Change) int { return rank(x.Server) - rank(y.Server) })
	return d
}

// A comparison is the state of one Compare.
type comparison struct {
	d      *Diff
	pa, pb *Policy // nil when registries are not compared
	ia, ib index   // their lookups
	a, b   *Document
	// la and lb are each side's servers by label (the first of a label
	// declared twice): every lookup by label goes through them, so that a
	// diff of many servers is linear in them, not quadratic.
	la, lb map[string]int
	same   map[textPair]bool // sameText's answers
}

// sameText reports whether a == b, comparing a pair of long texts once: a
// policy writes some reasons once per name and shares them among its rows
// (symfonic lists every server that advertises a name), so that comparing
// them row by row would cost servers × servers bytes.
func (c *comparison) sameText(a, b string) bool {
	if len(a) != len(b) || len(a) < 256 {
		return a == b
	}
	k := textPair{unsafe.StringData(a), unsafe.StringData(b), len(a)}
	eq, ok := c.same[k]
	if !ok {
		eq = a == b
		c.same[k] = eq
	}
	return eq
}

// A textPair is two texts by where their bytes are: strings do not change,
// so two at the same places and of one length compare the same.
type textPair struct {
	a, b *byte
	n    int
}

// labels maps each server's label in d to its first position.
func labels(d *Document) map[string]int {
	m := make(map[string]int, len(d.Servers))
	for i, s := range d.Servers {
		if _, dup := m[s.Label]; !dup {
			m[s.Label] = i
		}
	}
	return m
}

// An index looks a policy's entries and verdicts up by server and wire
// name: Compare reads each once per row, and a server may list thousands.
type index struct {
	entries  map[[2]string]Entry     // the first row of each wire name
	verdicts map[[2]string][]Verdict // a row's verdicts that did not pass
	statuses map[string]string       // each server's status, the first kept
	rows     map[string][]Entry      // each server's rows, in the registry's order
}

func indexOf(p *Policy) index {
	ix := index{entries: map[[2]string]Entry{}, verdicts: map[[2]string][]Verdict{}, statuses: map[string]string{}, rows: map[string][]Entry{}}
	if p == nil {
		return ix
	}
	for _, e := range p.Registry {
		ix.rows[e.Server] = append(ix.rows[e.Server], e)
	}
	for _, s := range p.Statuses {
		if _, seen := ix.statuses[s.Server]; !seen {
			ix.statuses[s.Server] = s.Status
		}
	}
	for _, e := range p.Registry {
		if _, seen := ix.entries[[2]string{e.Server, e.Wire}]; !seen {
			ix.entries[[2]string{e.Server, e.Wire}] = e
		}
	}
	for _, v := range p.Verdicts {
		k := [2]string{v.Server, v.Wire}
		ix.verdicts[k] = append(ix.verdicts[k], v)
	}
	return ix
}

// entry returns the first row of the wire name on server.
func (ix index) entry(server, wire string) (Entry, bool) {
	e, ok := ix.entries[[2]string{server, wire}]
	return e, ok
}

// verdict returns provider's verdict on the row, a pass when none is kept.
func (ix index) verdict(server, wire, provider string) Verdict {
	for _, v := range ix.verdicts[[2]string{server, wire}] {
		if v.Provider == provider {
			return v
		}
	}
	return Verdict{Severity: "pass"}
}

// add records a change located at s's declaration.
func (c *comparison) add(ch Change, s *Server) {
	ch.Line, ch.Col = s.Line, s.Col
	c.d.Changes = append(c.d.Changes, ch)
}

// server compares one server declared on both sides.
func (c *comparison) server(sa, sb *Server) {
	label := sb.Label
	switch {
	case sb.Failed && !sa.Failed:
		c.add(Change{Class: ServerFailed, Server: label, New: sb.Error, Detail: fmt.Sprintf("server %q now fails: %s", label, sb.Error)}, sb)
		return
	case sa.Failed && !sb.Failed:
		c.add(Change{Class: ServerChanged, Server: label, Old: "failed", New: "listed", Detail: fmt.Sprintf("server %q failed and now lists its tools", label)}, sb)
	}
	if sa.Endpoint != sb.Endpoint || !sa.pin().Endpoint.Equal(sb.pin().Endpoint) {
		c.add(Change{Class: ServerChanged, Server: label, Old: sa.Endpoint, New: sb.Endpoint, Detail: fmt.Sprintf("server %q is reached another way: %s → %s", label, sa.Endpoint, sb.Endpoint)}, sb)
	}
	if sa.Protocol != "" && sb.Protocol != "" && sa.Protocol != sb.Protocol {
		c.add(Change{Class: ServerChanged, Server: label, Old: sa.Protocol, New: sb.Protocol, Detail: fmt.Sprintf("server %q speaks protocol %s, was %s", label, sb.Protocol, sa.Protocol)}, sb)
	}
	if sa.Listed && sb.Listed && c.pa != nil && !slices.Equal(sa.Capabilities, sb.Capabilities) {
		was, now := strings.Join(sa.Capabilities, " "), strings.Join(sb.Capabilities, " ")
		c.add(Change{Class: ServerChanged, Server: label, Old: was, New: now, Detail: fmt.Sprintf("server %q declares capabilities [%s], was [%s]", label, now, was)}, sb)
	}
	if c.pa != nil {
		if was, now := c.ia.statuses[label], c.ib.statuses[label]; was != now && !sb.Failed && !sa.Failed {
			c.add(Change{Class: ServerChanged, Server: label, Old: was, New: now, Detail: fmt.Sprintf("server %q is %s, was %s", label, now, was)}, sb)
		}
	}
	if !sa.Listed || !sb.Listed {
		return // a side that never listed says nothing of the tools
	}
	for _, t := range model.Diff(sa.pin(), sb.pin()).Tools {
		switch t.Kind {
		case model.ToolAdded:
			c.add(Change{Class: Added, Server: label, Tool: t.Wire, Detail: fmt.Sprintf("%q added on %s%s", t.Wire, label, registeredAs(c.ib, label, t.Wire))}, sb)
		case model.ToolRemoved:
			c.add(Change{Class: Removed, Server: label, Tool: t.Wire, Detail: fmt.Sprintf("%q removed from %s%s", t.Wire, label, registeredAs(c.ia, label, t.Wire))}, sb)
		case model.ToolChanged:
			ch := Change{Class: DefinitionChanged, Server: label, Tool: t.Wire, Old: t.OldSHA256, New: t.NewSHA256}
			var paths []string
			for _, f := range t.Fields {
				ch.Fields = append(ch.Fields, Field{Path: f.Path, Op: f.Op, Old: f.Old, New: f.New})
				paths = append(paths, f.Path)
			}
			ch.Detail = fmt.Sprintf("%q on %s changed: %s", t.Wire, label, strings.Join(slices.Compact(paths), ", "))
			c.add(ch, sb)
		}
	}
	if c.pa != nil {
		c.outcomes(label, sb)
	}
}

// registeredAs says what a tool was or is registered as under the
// policy ix indexes ("" when registries are not compared).
func registeredAs(ix index, server, wire string) string {
	if e, ok := ix.entry(server, wire); ok {
		if e.Live() {
			return fmt.Sprintf(" (registered as %q)", e.Registered)
		}
		return " (" + outcomeText(e) + ")"
	}
	return ""
}

// outcomes compares the registry entries and provider verdicts of the
// tools a server advertised on both sides.
func (c *comparison) outcomes(label string, sb *Server) {
	for _, eb := range c.ib.rows[label] {
		if eb.Wire == "" {
			continue
		}
		ea, ok := c.ia.entry(label, eb.Wire)
		if first, _ := c.ib.entry(label, eb.Wire); !ok || eb.Index != first.Index {
			continue
		}
		ch := Change{Server: label, Tool: eb.Wire}
		switch {
		case ea.Live() && !eb.Live():
			ch.Class, ch.Old, ch.New = Displaced, ea.Registered, outcomeText(eb)
			ch.Detail = fmt.Sprintf("%q on %s was registered as %q, now %s", eb.Wire, label, ea.Registered, outcomeText(eb))
		case ea.Live() && eb.Live() && ea.Registered != eb.Registered:
			ch.Class, ch.Old, ch.New = NameChanged, ea.Registered, eb.Registered
			ch.Detail = fmt.Sprintf("%q on %s is registered as %q, was %q", eb.Wire, label, eb.Registered, ea.Registered)
		case ea.Outcome != eb.Outcome || !c.sameText(ea.Reason, eb.Reason) || ea.By != eb.By || ea.Registered != eb.Registered:
			was, is := outcomeText(ea), outcomeText(eb)
			if was == is { // a registered row whose reason alone changed
				was, is = withReason(ea), withReason(eb)
			}
			ch.Class, ch.Old, ch.New = OutcomeChanged, was, is
			ch.Detail = fmt.Sprintf("%q on %s is %s, was %s", eb.Wire, label, is, was)
		default:
			c.verdicts(label, eb.Wire, sb)
			continue
		}
		c.add(ch, sb)
		c.verdicts(label, eb.Wire, sb)
	}
}

// verdicts compares the providers' verdicts on one tool.
func (c *comparison) verdicts(label, wire string, sb *Server) {
	providers := map[string]bool{}
	for _, ix := range []index{c.ia, c.ib} {
		for _, v := range ix.verdicts[[2]string{label, wire}] {
			providers[v.Provider] = true
		}
	}
	names := make([]string, 0, len(providers))
	for p := range providers {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, prov := range names {
		va, vb := c.ia.verdict(label, wire, prov), c.ib.verdict(label, wire, prov)
		if va.Severity == vb.Severity {
			continue
		}
		class := ProviderChanged
		if vb.Severity == "fail" {
			class = ProviderError
		}
		detail := fmt.Sprintf("%s on %q of %s: %s, was %s", prov, wire, label, vb.Severity, va.Severity)
		if vb.Message != "" {
			detail += ": " + vb.Message
		}
		c.add(Change{Class: class, Server: label, Tool: wire, Provider: prov, Old: va.Severity, New: vb.Severity, Detail: detail}, sb)
	}
}

// findings compares the findings under the policy, as multisets.
func (c *comparison) findings(a, b *Document) {
	key := func(f surface.Finding) string {
		return strings.Join([]string{f.Kind, f.Server, f.Tool, f.Evidence}, "\x00")
	}
	count := map[string]int{}
	for _, f := range c.pa.Findings {
		count[key(f)]++
	}
	for _, f := range c.pb.Findings {
		if k := key(f); count[k] > 0 {
			count[k]--
			continue
		}
		c.add(Change{Class: FindingNew, Server: f.Server, Tool: f.Tool, New: f.Evidence,
			Detail: fmt.Sprintf("%s %s: %s", f.Severity, f.Kind, f.Evidence)}, c.located(f.Server))
	}
	for _, f := range c.pb.Findings {
		count[key(f)]-- // what b has, a had: the rest of count is gone
	}
	for _, f := range c.pa.Findings {
		if k := key(f); count[k] > 0 {
			count[k]--
			c.add(Change{Class: FindingGone, Server: f.Server, Tool: f.Tool, Old: f.Evidence,
				Detail: fmt.Sprintf("%s %s: %s", f.Severity, f.Kind, f.Evidence)}, c.located(f.Server))
		}
	}
}

// located returns the server labelled label in B, where a change about it
// is located, or an empty one (located in B's file as a whole).
func (c *comparison) located(label string) *Server {
	if i, ok := c.lb[label]; ok {
		return &c.b.Servers[i]
	}
	return &Server{}
}

// outcomeText is an entry's outcome in words: "dropped: name taken by
// alpha", "displaced by beta", "registered as \"x\"".
// withReason is outcomeText with the entry's reason, which a registered
// row's leaves out: "registered as "x" (no reason)".
func withReason(e Entry) string {
	if e.Reason == "" {
		return outcomeText(e) + " (no reason)"
	}
	if e.Live() {
		return outcomeText(e) + ": " + e.Reason
	}
	return outcomeText(e)
}

func outcomeText(e Entry) string {
	switch {
	case e.Live():
		return fmt.Sprintf("%s as %q", e.Outcome, e.Registered)
	case e.Outcome == "displaced" && e.By != "":
		return "displaced by " + e.By
	case e.Reason != "":
		return e.Outcome + ": " + e.Reason
	}
	return e.Outcome
}
