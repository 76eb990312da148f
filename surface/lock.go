package surface

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/model"
)

// A ServerLock is one server compared with its pin.
type ServerLock struct {
	// Status is "unchanged", "changed", "unpinned" (the lock has no entry
	// for the server) or "not-compared" (its tools were never listed).
	Status string
	// Diff is how the server differs from its pin ("changed").
	Diff model.PinDiff
	// Tools counts the tools the server advertises now.
	Tools int
}

// A lockComparison is every server compared with the lock.
type lockComparison struct {
	servers []*ServerLock
	stale   []string
}

// compareLocks compares every listed server with its pin in the lock; nil
// without a lock.
func (a *Assessment) compareLocks() *lockComparison {
	if a.Lock == nil {
		return nil
	}
	c := &lockComparison{servers: make([]*ServerLock, len(a.Servers)), stale: []string{}}
	declared := make(map[string]bool)
	for si := range a.Snapshot.Servers {
		sv := &a.Snapshot.Servers[si]
		declared[sv.Label()] = true
		if !sv.Listed {
			c.servers[si] = &ServerLock{Status: "not-compared"}
			continue
		}
		cur := model.Pin(sv.Endpoint, sv.Tools)
		old, pinned := a.Lock.Servers[sv.Label()]
		if !pinned {
			c.servers[si] = &ServerLock{Status: "unpinned", Tools: len(cur.Tools)}
			continue
		}
		sl := &ServerLock{Status: "unchanged", Diff: model.Diff(old, cur), Tools: len(cur.Tools)}
		if !sl.Diff.Empty() {
			sl.Status = "changed"
		}
		c.servers[si] = sl
	}
	for label := range a.Lock.Servers {
		if !declared[label] {
			c.stale = append(c.stale, label)
		}
	}
	slices.Sort(c.stale)
	return c
}

// lockFindings adds a finding per difference from the lock: an error, or
// an info when the lock is being updated to accept them. rows holds the
// first row of each wire name of each server.
func (a *Assessment) lockFindings(fs *findings, rows []map[string]int, c *lockComparison) {
	sev := Error
	if a.LockUpdated {
		sev = Info
	}
	servers := a.Snapshot.Servers
	if a.Lock.Outdated() {
		// Only a version 1 lock may hold secrets; a version 2 lock is
		// compared as well as a current one.
		old := Info
		if a.Lock.Version < 2 {
			old = Warning
		}
		fs.add(len(servers), -1, Finding{Severity: old, Kind: "lock", Evidence: OutdatedLock(a.LockPath, a.Lock, a.LockUpdated)})
	}
	if a.LockUpdated {
		for _, k := range keptPins(a.Lock, servers) {
			fs.add(k.server, -1, Finding{Severity: Warning, Kind: "lock", Server: servers[k.server].Label(), Evidence: k.why})
		}
	}
	for si, sl := range c.servers {
		label := servers[si].Label()
		switch sl.Status {
		case "not-compared":
			continue
		case "unpinned":
			fs.add(si, -1, Finding{Severity: sev, Kind: "lock", Server: label, Evidence: fmt.Sprintf(
				"server %s is not in the lock: its %d tool(s) were never approved", label, sl.Tools)})
			continue
		}
		if t := sl.Diff.Endpoint; t != nil {
			ev := fmt.Sprintf("server %s is reached another way than the lock says: was %s, now %s", label, t.Old, t.New)
			if t.Old.Redacted == t.New.Redacted {
				ev = fmt.Sprintf("server %s is reached another way than the lock says: %s, with a masked value changed (fingerprint %s, now %s)",
					label, t.New, shortFingerprint(t.Old.Fingerprint), shortFingerprint(t.New.Fingerprint))
			}
			fs.add(si, -1, Finding{Severity: sev, Kind: "lock", Server: label, Evidence: ev})
		}
		for i, ch := range sl.Diff.Tools {
			row, ok := rows[si][ch.Wire]
			if !ok || ch.Wire == "" {
				row = len(servers[si].Tools) + i // a removed tool has no row: after the others
			}
			fs.add(si, row, Finding{Severity: sev, Kind: "lock", Server: label, Tool: ch.Wire, Evidence: changeEvidence(label, ch)})
		}
	}
	for _, label := range c.stale {
		fs.add(len(servers), -1, Finding{Severity: sev, Kind: "lock", Server: label, Evidence: fmt.Sprintf(
			"the lock pins server %s, which the config does not declare", label)})
	}
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
// incomplete (Server.Partial), whose missing tools were not removed.
// Servers the config no longer declares are dropped.
func UpdatedLock(old *model.Lock, snap *Snapshot) *model.Lock {
	l := model.NewLock()
	for i := range snap.Servers {
		st := &snap.Servers[i]
		var (
			sp   model.ServerPin
			kept bool
		)
		if old != nil {
			sp, kept = old.Servers[st.Label()]
		}
		switch {
		case st.Listed && !(st.Partial() && kept):
			l.Servers[st.Label()] = model.Pin(st.Endpoint, st.Tools)
		case kept:
			l.Servers[st.Label()] = sp
		}
	}
	return l
}

// KeptPins says, one line per server, which servers UpdatedLock pins from
// an incomplete listing: those it had a pin for keep it as it was, a new
// one is pinned with the tools it listed.
func KeptPins(old *model.Lock, snap *Snapshot) []string {
	var out []string
	for _, k := range keptPins(old, snap.Servers) {
		out = append(out, k.why)
	}
	return out
}

type keptPin struct {
	server int // index in servers
	why    string
}

func keptPins(old *model.Lock, servers []Server) []keptPin {
	var out []keptPin
	for i := range servers {
		st := &servers[i]
		if !st.Partial() {
			continue
		}
		why := fmt.Sprintf("server %s: its tool listing is incomplete (%s)", st.Label(), st.Err)
		var (
			sp model.ServerPin
			ok bool
		)
		if old != nil {
			sp, ok = old.Servers[st.Label()]
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
// which may hold secrets in clear, and what to do about it (or, when
// updating, that it is being done).
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
