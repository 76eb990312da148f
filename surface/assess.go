package surface

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// A Status is where a server stands under a policy.
type Status string

const (
	// OK: listed, and every row it advertised has a route or is withheld
	// by the config.
	OK Status = "ok"
	// Incomplete: listed, but a row it advertised has no route (a name
	// lost, a row without a usable name).
	Incomplete Status = "incomplete"
	// PolicyFailed: listed, but the policy failed the server as a whole
	// (lionagi's postcondition, openai-agents' duplicate names).
	PolicyFailed Status = "failed by policy"
	// Failed: it did not start, connect or list.
	Failed Status = "failed"
	// NeedsLogin: a remote server that asked for authorization, with no
	// usable token stored (mcplens login stores one).
	NeedsLogin Status = "needs login"
	// Connecting: not listed yet.
	Connecting Status = "connecting"
	// Closed: the session ended before it was listed.
	Closed Status = "closed"
	// Disconnected: stopped on request (loader.Session.Disconnect); it
	// offers no tools until it is connected again.
	Disconnected Status = "disconnected"
)

// Options are what an Assessment judges a snapshot by.
type Options struct {
	Policy   model.Policy
	Profiles []model.Profile
	// Lock, when set, is compared with what the servers advertised, read
	// from LockPath.
	Lock     *model.Lock
	LockPath string
	// LockUpdated says the lock file is being rewritten with this run's
	// tools: differences are accepted (Info), not errors.
	LockUpdated bool
	// Registry, when set, is Policy applied to the snapshot's catalogues
	// already (the interface keeps one per policy).
	Registry *model.Registry
	// Observed, when set, is Observed(snapshot) computed already: Assess
	// does not compute it again.
	Observed []model.Finding
	// Gated, when set, is Gated of the sightings of the same config by
	// several clients: each is a "gated-tool" finding.
	Gated []GatedTool
	// Fixed says that the snapshot does not change while the assessment
	// is read (a report, a snapshot document): Derive then shares it
	// rather than cloning it, which costs a copy of every server at each
	// policy assessed.
	Fixed bool
}

// A Verdict is one server under an Assessment's policy.
type Verdict struct {
	Status Status
	// Result is the server's part of the registry; nil when it was not
	// listed.
	Result *model.ServerResult
	// Error is why the policy failed the server ("" when it did not), in
	// the policy's words and saying what that left registered: a policy
	// that counts what passed its check before failing the server would
	// otherwise read "1 registered" beside a count of 0.
	Error string
	// Lock is the server compared with its pin, with Options.Lock.
	Lock *ServerLock
}

// An Assessment is what a policy, provider profiles and a lock make of a
// snapshot: the registry, each server's status, and every finding. It is
// computed once and read by every view and report; it is never changed.
type Assessment struct {
	Options
	// Snapshot is the snapshot assessed, as it was then (Snapshot.Clone).
	Snapshot *Snapshot
	// Prompts is the slash commands the policy's client makes of the
	// listed servers' prompts (model.PromptPolicyFor), one server result
	// per listed server as in Registry.
	Prompts *model.Registry
	// Servers has one verdict per snapshot server, in its order.
	Servers []Verdict
	// Findings is every finding, ordered by server (in declaration order,
	// those on no server last), then row (the server's own first), then
	// kind as Findings adds them. Derive leaves it nil.
	Findings []Finding
	// Stale lists, sorted, the servers the lock pins that the config does
	// not declare.
	Stale []string
}

// Assess judges snap under o, lock comparison and findings included.
func Assess(snap *Snapshot, o Options) *Assessment {
	a := Derive(snap, o)
	locks := a.compareLocks()
	if locks != nil {
		for i := range a.Servers {
			a.Servers[i].Lock = locks.servers[i]
		}
		a.Stale = locks.stale
	}
	observed := o.Observed
	if observed == nil {
		observed = Observed(a.Snapshot)
	}
	if len(o.Gated) > 0 {
		observed = slices.Concat(observed, gatedFindings(o.Gated))
	}
	a.Findings = a.findingsWith(observed, locks)
	return a
}

// Derive judges snap under o but for what costs a scan of every tool (the
// findings, the lock comparison): the registry and each server's status.
func Derive(snap *Snapshot, o Options) *Assessment {
	a := &Assessment{Options: o, Snapshot: snap, Servers: make([]Verdict, len(snap.Servers))}
	if !o.Fixed {
		a.Snapshot = snap.Clone()
	}
	if a.Registry == nil {
		a.Registry = o.Policy.Apply(snap.Catalogues())
	}
	a.Prompts = model.PromptPolicyFor(o.Policy.Name).Apply(a.Snapshot.PromptCatalogues())
	next := 0 // Registry.Servers are the listed servers, in declaration order
	reg := a.Registry
	for i := range a.Snapshot.Servers {
		sv := &a.Snapshot.Servers[i]
		v := &a.Servers[i]
		if sv.Listed {
			if next < len(reg.Servers) && reg.Servers[next].Server == sv.Label() {
				v.Result = &reg.Servers[next]
				next++
			} else if r, ok := reg.Server(sv.Label()); ok {
				v.Result = r
			}
		}
		v.Status = statusOf(sv, v.Result)
		if r := v.Result; r != nil && r.Failed {
			v.Error = r.Err
			if r.Registered == 0 && r.Advertised > 0 {
				v.Error += "; none of its tools is registered: the policy fails the server as a whole"
			}
		}
	}
	return a
}

// statusOf is the one rule for a server's status.
func statusOf(sv *Server, res *model.ServerResult) Status {
	switch {
	case sv.State == mcpsession.Disconnected:
		return Disconnected
	case sv.State == mcpsession.Failed && sv.NeedsLogin:
		return NeedsLogin
	case sv.State == mcpsession.Failed:
		return Failed
	case res == nil && sv.State == mcpsession.Closed:
		return Closed
	case res == nil, sv.State == mcpsession.Connecting:
		return Connecting // connecting again (a restart, a client switch): its last listing still shown
	case res.Failed:
		return PolicyFailed
	case res.Registered+Filtered(res) < res.Advertised:
		return Incomplete
	}
	return OK
}

// Filtered counts the rows of r the config withholds: they are not
// registered, and the server is no less complete for it.
func Filtered(r *model.ServerResult) int {
	n := 0
	for _, o := range r.Outcomes {
		if o.Kind == model.Filtered {
			n++
		}
	}
	return n
}

// FindingsWith returns every finding of the assessment, observed being
// Observed(a.Snapshot), which may have been computed before for the same
// snapshot under another policy; with Options.Gated, each gated tool is
// one more, as in Assess. Evidence is masked (Snapshot.Redact). It
// changes nothing: it may run while the assessment is read elsewhere.
func (a *Assessment) FindingsWith(observed []model.Finding) []Finding {
	if len(a.Gated) > 0 {
		observed = slices.Concat(observed, gatedFindings(a.Gated))
	}
	return a.findingsWith(observed, a.compareLocks())
}

func (a *Assessment) findingsWith(observed []model.Finding, locks *lockComparison) []Finding {
	var fs findings
	rows := make([]map[string]int, len(a.Servers)) // first row of each wire name
	for si := range a.Servers {
		rows[si] = a.serverFindings(si, &fs)
		a.promptFindings(si, &fs)
	}
	pos := func(server, tool string) (int, int) {
		si, ok := a.Snapshot.Index(server) // a label declared twice: its first declaration
		if !ok {
			return len(a.Servers), -1 // the config file's own
		}
		if row, ok := rows[si][tool]; ok && tool != "" {
			return si, row
		}
		return si, -1
	}
	for _, f := range observed {
		si, row := pos(f.Server, f.Tool)
		fs.add(si, row, Finding{Severity: severityOf(f.Severity), Kind: f.Kind, Server: f.Server, Tool: f.Tool, Evidence: f.Evidence})
	}
	if locks != nil {
		a.lockFindings(&fs, rows, locks)
	}
	out := fs.sorted()
	if red := a.Snapshot.Redact; red.Longest() > 0 {
		for i := range out {
			out[i].Evidence = red.Values(out[i].Evidence)
		}
	}
	return out
}

// serverFindings adds the findings of server si that are the policy's and
// the profiles' own, returning the first row of each of its wire names.
func (a *Assessment) serverFindings(si int, fs *findings) map[string]int {
	sv, v, red := &a.Snapshot.Servers[si], a.Servers[si], a.Snapshot.Redact
	label := sv.Label()
	if v.Status == NeedsLogin {
		// A warning: the server is fine, it waits for the user.
		fs.add(si, -1, Finding{Severity: Warning, Kind: "needs-login", Server: label, Evidence: red.Text(sv.Err)})
		return nil
	}
	if v.Status == Failed {
		// A failure can quote the config, and a server's stderr can echo
		// its credentials: both are masked.
		ev := red.Text(sv.Err)
		if tail := LastLines(red.Text(sv.Stderr), 3); tail != "" {
			ev += "; stderr: " + tail
		}
		fs.add(si, -1, Finding{Severity: Error, Kind: "server-failed", Server: label, Evidence: ev})
		return nil
	}
	res := v.Result
	if res == nil {
		return nil
	}
	if sv.Err != "" && !slices.ContainsFunc(sv.Faults, func(f model.Finding) bool { return f.Evidence == sv.Err }) {
		// A listing cut short is a protocol finding already.
		fs.add(si, -1, Finding{Severity: Warning, Kind: "note", Server: label, Evidence: red.Text(sv.Err)})
	}
	if res.Failed {
		fs.add(si, -1, Finding{Severity: Error, Kind: "policy-failed", Server: label, Evidence: v.Error})
	}
	for _, n := range res.Notes {
		fs.add(si, -1, Finding{Severity: Warning, Kind: "note", Server: label, Evidence: n})
	}
	rows := make(map[string]int, len(res.Outcomes))
	for _, o := range res.Outcomes {
		if _, seen := rows[o.Wire]; !seen {
			rows[o.Wire] = o.Index
		}
		if app := appOnly(sv, o); app != nil {
			fs.add(si, o.Index, Finding{Severity: Info, Kind: "app-only", Server: label, Tool: o.Wire, Evidence: appOnlyEvidence(label, o, app)})
			if o.Kind == model.Filtered {
				continue
			}
		}
		if !o.Live() {
			fs.add(si, o.Index, Finding{Severity: Error, Kind: "tool-lost", Server: label, Tool: o.Wire, Evidence: a.lostEvidence(o)})
			continue
		}
		for _, p := range a.Profiles {
			if o.Name == "" {
				break
			}
			c := p.Check(o)
			if c.Severity == model.Pass {
				continue
			}
			fs.add(si, o.Index, Finding{Severity: severityOf(c.Severity), Kind: "provider", Server: label, Tool: o.Wire, Evidence: c.Message})
		}
	}
	return rows
}

// Route returns where a call to the row of o goes under the assessment's
// registry (possibly another server's row), and false when its name is
// not in the registry.
func (a *Assessment) Route(o model.Outcome) (model.Route, bool) {
	if o.Name == "" {
		return model.Route{}, false
	}
	return a.Registry.Lookup(o.Name)
}

// lostEvidence says what happened to a row that has no route, and where
// calls to its name go instead.
func (a *Assessment) lostEvidence(o model.Outcome) string {
	var b strings.Builder
	subject := fmt.Sprintf("row %d", o.Index)
	if o.Wire != "" {
		subject = fmt.Sprintf("%q", o.Wire)
	}
	fmt.Fprintf(&b, "%s on %s %s", subject, o.Server, o.Kind)
	if o.Name != "" && o.Name != o.Wire {
		fmt.Fprintf(&b, " (as %q)", o.Name)
	}
	if o.Reason != "" {
		b.WriteString(": " + o.Reason)
	}
	if rt, ok := a.Route(o); ok && o.Kind == model.Dropped {
		fmt.Fprintf(&b, "; calls to %q go to %s's %q", o.Name, rt.Server, rt.Wire)
	}
	return b.String()
}

// LastLines returns the last n non-empty lines of s, joined by " | ".
func LastLines(s string, n int) string {
	var out []string
	for _, l := range slices.Backward(strings.Split(s, "\n")) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
		if len(out) == n {
			break
		}
	}
	slices.Reverse(out)
	return strings.Join(out, " | ")
}
