package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/model"
)

// compareLock compares every listed server with its pin in in.Lock, marks
// the report's servers and tools, and adds a finding per difference: an
// error, or an info when the lock is being updated to accept them.
func compareLock(r *Report, in Input, fs *findings) {
	sev := Error
	if in.LockUpdated {
		sev = Info
	}
	r.Lock = &Lock{Path: in.LockPath, Updated: in.LockUpdated, Stale: []string{}}
	if in.Lock.Outdated() {
		// Only a version 1 lock may hold secrets; a version 2 lock is
		// compared as well as a current one.
		old := Info
		if in.Lock.Version < 2 {
			old = Warning
		}
		fs.add(len(in.Servers), -1, Finding{Severity: old, Kind: "lock", Evidence: OutdatedLock(in.LockPath, in.Lock, in.LockUpdated)})
	}
	if in.LockUpdated {
		for _, k := range keptPins(in.Lock, in.Servers) {
			fs.add(k.server, -1, Finding{Severity: Warning, Kind: "lock", Server: in.Servers[k.server].Label, Evidence: k.why})
		}
	}
	declared := make(map[string]bool)
	for si, st := range in.Servers {
		declared[st.Label] = true
		sv := &r.Servers[si]
		sl := &ServerLock{Changes: []ToolChange{}}
		sv.Lock = sl
		if !st.Listed {
			sl.Status = "not-compared"
			continue
		}
		cur := model.Pin(st.Endpoint, st.Tools)
		old, pinned := in.Lock.Servers[st.Label]
		if !pinned {
			sl.Status = "unpinned"
			for i := range sv.Tools {
				if sv.Tools[i].Wire != "" {
					sv.Tools[i].Lock = string(model.ToolAdded)
				}
			}
			fs.add(si, -1, Finding{Severity: sev, Kind: "lock", Server: st.Label, Evidence: fmt.Sprintf(
				"server %s is not in the lock: its %d tool(s) were never approved", st.Label, len(cur.Tools))})
			continue
		}
		d := model.Diff(old, cur)
		sl.Status = "unchanged"
		if !d.Empty() {
			sl.Status = "changed"
		}
		if t := d.Endpoint; t != nil {
			sl.Endpoint = &EndpointChange{Old: t.Old.String(), New: t.New.String()}
			ev := fmt.Sprintf("server %s is reached another way than the lock says: was %s, now %s", st.Label, t.Old, t.New)
			if t.Old.Redacted == t.New.Redacted {
				ev = fmt.Sprintf("server %s is reached another way than the lock says: %s, with a masked value changed (fingerprint %s, now %s)",
					st.Label, t.New, shortFingerprint(t.Old.Fingerprint), shortFingerprint(t.New.Fingerprint))
			}
			fs.add(si, -1, Finding{Severity: sev, Kind: "lock", Server: st.Label, Evidence: ev})
		}
		for i, c := range d.Tools {
			sl.Changes = append(sl.Changes, toolChange(c))
			row := len(st.Tools) + i // a removed tool has no row: after the others
			for _, t := range sv.Tools {
				if t.Wire == c.Wire {
					row = t.Index
					break
				}
			}
			fs.add(si, row, Finding{Severity: sev, Kind: "lock", Server: st.Label, Tool: c.Wire, Evidence: changeEvidence(st.Label, c)})
		}
		for i := range sv.Tools {
			t := &sv.Tools[i]
			if t.Wire == "" {
				continue
			}
			t.Lock = "unchanged"
			if c, ok := d.Tool(t.Wire); ok {
				t.Lock = string(c.Kind)
			}
		}
	}
	for label := range in.Lock.Servers {
		if !declared[label] {
			r.Lock.Stale = append(r.Lock.Stale, label)
		}
	}
	slices.Sort(r.Lock.Stale)
	for _, label := range r.Lock.Stale {
		fs.add(len(in.Servers), -1, Finding{Severity: sev, Kind: "lock", Server: label, Evidence: fmt.Sprintf(
			"the lock pins server %s, which the config does not declare", label)})
	}
}

func toolChange(c model.ToolChange) ToolChange {
	tc := ToolChange{Wire: c.Wire, Change: string(c.Kind), OldSHA256: c.OldSHA256, NewSHA256: c.NewSHA256, Fields: []FieldChange{}}
	for _, f := range c.Fields {
		tc.Fields = append(tc.Fields, FieldChange{Path: f.Path, Op: f.Op, Old: f.Old, New: f.New})
	}
	return tc
}

// changeEvidence words one tool change for a finding.
func changeEvidence(server string, c model.ToolChange) string {
	switch c.Kind {
	case model.ToolAdded:
		return fmt.Sprintf("tool %q on %s is not in the lock", c.Wire, server)
	case model.ToolRemoved:
		return fmt.Sprintf("tool %q on %s is in the lock but no longer advertised", c.Wire, server)
	}
	parts := make([]string, len(c.Fields))
	for i, f := range c.Fields {
		parts[i] = f.String()
	}
	return fmt.Sprintf("tool %q on %s changed since the lock: %s", c.Wire, server, strings.Join(parts, "; "))
}

// UpdatedLock returns the lock to write after a run: every listed server
// pinned as it is now. A server whose tools could not be listed keeps its
// old pin, if it had one, so a server that is down for one run does not
// lose its approval; so does a server whose listing is known to be
// incomplete (ServerState.Partial), whose missing tools were not removed.
// Servers the config no longer declares are dropped.
func UpdatedLock(old *model.Lock, servers []ServerState) *model.Lock {
	l := model.NewLock()
	for _, st := range servers {
		var (
			sp   model.ServerPin
			kept bool
		)
		if old != nil {
			sp, kept = old.Servers[st.Label]
		}
		switch {
		case st.Listed && !(st.Partial() && kept):
			l.Servers[st.Label] = model.Pin(st.Endpoint, st.Tools)
		case kept:
			l.Servers[st.Label] = sp
		}
	}
	return l
}

// Partial reports whether the server's tools were listed but the listing is
// known to be incomplete: a cursor that repeats, the page cap, a relisting
// that failed. Err says why.
func (s ServerState) Partial() bool { return s.Listed && s.Err != "" }

// KeptPins says, one line per server, which servers UpdatedLock pins from
// an incomplete listing: those it had a pin for keep it as it was, a new
// one is pinned with the tools it listed.
func KeptPins(old *model.Lock, servers []ServerState) []string {
	var out []string
	for _, k := range keptPins(old, servers) {
		out = append(out, k.why)
	}
	return out
}

type keptPin struct {
	server int // index in servers
	why    string
}

func keptPins(old *model.Lock, servers []ServerState) []keptPin {
	var out []keptPin
	for i, st := range servers {
		if !st.Partial() {
			continue
		}
		why := fmt.Sprintf("server %s: its tool listing is incomplete (%s)", st.Label, st.Err)
		var (
			sp model.ServerPin
			ok bool
		)
		if old != nil {
			sp, ok = old.Servers[st.Label]
		}
		if ok {
			why += fmt.Sprintf("; the lock keeps its %d pinned tool(s) as they were", len(sp.Tools))
		} else {
			why += fmt.Sprintf("; the lock pins the %d tool(s) it listed", len(st.Tools))
		}
		out = append(out, keptPin{server: i, why: why})
	}
	return out
}

// OutdatedLock says that the lock read from path is of an older version,
// what that means (a version 1 lock may hold secrets in clear; a version 2
// lock's hashes are of an older canonical form, recomputed on reading) and
// what to do about it (or, when updating, that it is being done).
func OutdatedLock(path string, l *model.Lock, updating bool) string {
	why := "its hashes were recomputed in the canonical form of RFC 8785, which version 3 uses"
	if l.Version < 2 {
		why = "it may hold secrets in clear"
	}
	if updating {
		return fmt.Sprintf("lock %s is version %d (%s); rewriting it as version %d", path, l.Version, why, model.LockVersion)
	}
	return fmt.Sprintf("lock %s is version %d (%s); rewrite it with --update-lock", path, l.Version, why)
}

// shortFingerprint is enough of a fingerprint to tell two apart.
func shortFingerprint(f string) string {
	if f == "" {
		return "none"
	}
	const n = len("sha256:") + 12
	if len(f) > n {
		return f[:n]
	}
	return f
}
