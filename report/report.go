package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// A ServerState is what is known of one configured server: the loader's
// last word on it. The check command and the interface both hold one per
// server.
type ServerState struct {
	Label    string
	Endpoint model.Endpoint
	State    loader.State
	// Err is the failure (Failed), or a note on an unfinished listing
	// (Ready).
	Err, Stderr string
	Protocol    string
	ServerName  string
	ServerVer   string
	Tools       []model.Tool
	// Listed reports whether the server's tools were listed: Tools is
	// what it advertised (possibly nothing).
	Listed bool
	// Config holds what the config says about this server that its
	// client would not act on (config.ServerSpec.Findings).
	Config []string
	// Faults are the protocol faults the server committed (the loader's
	// Event.Findings).
	Faults []model.Finding
}

// Apply records a loader event for the server it is about.
func (s *ServerState) Apply(ev loader.Event) {
	if ev.Frames || ev.Server != s.Label {
		return
	}
	s.State = ev.State
	switch ev.State {
	case loader.Ready:
		s.Err = ev.Err
		s.Protocol = ev.Protocol
		s.ServerName, s.ServerVer = ev.ServerName, ev.ServerVersion
		s.Tools, s.Listed = ev.Tools, true
		s.Faults = ev.Findings
	case loader.Failed:
		s.Err, s.Stderr = ev.Err, ev.Stderr
		s.Tools, s.Listed = nil, false
		s.Faults = ev.Findings
	}
}

// EndpointOf returns where a configured server is reached, the identity its
// pin records: its URL when it has one, else its command and arguments, as
// run (the pin keeps only their fingerprint), shown with their secrets
// masked (ServerSpec.Redacted). A lock file is meant to be committed.
func EndpointOf(spec config.ServerSpec) model.Endpoint {
	r := spec.Redacted()
	if spec.URL != "" {
		return model.Endpoint{URL: spec.URL, Shown: r.URL}
	}
	return model.Endpoint{Command: spec.Command, Args: slices.Clone(spec.Args), Shown: model.CommandLine(r.Command, r.Args)}
}

// An Input is what a report is built from.
type Input struct {
	// Config names the config in the report's title.
	Config   string
	Policy   model.Policy
	Profiles []model.Profile
	// Servers are in config declaration order.
	Servers []ServerState
	// Lock, when set, is compared with what the servers advertised.
	Lock     *model.Lock
	LockPath string
	// LockUpdated says the lock file is being rewritten with this run's
	// tools: differences are reported as accepted (Info), not as errors.
	LockUpdated bool
	// Redact masks the config's secrets in every string the report holds
	// (config.NewRedactor); nil masks credential syntax only.
	Redact *model.Redactor
	// ConfigFindings are the config file's own findings
	// (config.Config.Findings).
	ConfigFindings []string
	// Findings, when not nil, is Findings(ConfigFindings, Servers, Redact)
	// computed already (the interface has it): it is not computed again.
	Findings []model.Finding
}

// Build applies the policy to the listed servers and reports on every
// server, row, collision and finding. It is pure: the same input gives the
// same report.
func Build(in Input) *Report {
	var cats []model.Catalogue
	for _, s := range in.Servers {
		if s.Listed {
			cats = append(cats, model.Catalogue{Server: s.Label, Tools: s.Tools})
		}
	}
	reg := in.Policy.Apply(cats)
	r := &Report{
		Version:       Version,
		Config:        in.Config,
		Policy:        in.Policy.Name,
		PolicySummary: in.Policy.Summary,
		Providers:     []string{},
		Servers:       []Server{},
		Collisions:    []Collision{},
	}
	for _, p := range in.Profiles {
		r.Providers = append(r.Providers, p.Name)
	}
	found := in.Findings
	if found == nil {
		found = Findings(in.ConfigFindings, in.Servers, in.Redact)
	}
	var fs findings
	for si, st := range in.Servers {
		r.Servers = append(r.Servers, buildServer(si, st, reg, in.Profiles, in.Redact, &fs))
	}
	pos := func(server, tool string) (int, int) {
		for si, s := range r.Servers {
			if s.Label != server {
				continue
			}
			for _, t := range s.Tools {
				if tool != "" && t.Wire == tool {
					return si, t.Index
				}
			}
			return si, -1
		}
		return len(r.Servers), -1
	}
	for _, f := range found {
		sev := Warning
		if f.Severity == model.Fail {
			sev = Error
		}
		si, row := pos(f.Server, f.Tool)
		fs.add(si, row, Finding{Severity: sev, Kind: f.Kind, Server: f.Server, Tool: f.Tool, Evidence: f.Evidence})
	}
	for _, c := range reg.Collisions() {
		col := Collision{Name: c.Name, Class: c.Class.String()}
		for j, o := range c.Rows {
			col.Claims = append(col.Claims, Claim{Server: o.Server, Wire: o.Wire, Outcome: o.Kind.String(), Won: j == c.Winner})
		}
		r.Collisions = append(r.Collisions, col)
	}
	if in.Lock != nil {
		compareLock(r, in, &fs)
	}
	r.Findings = fs.sorted()
	r.Summary = summarize(r)
	maskValues(r, in.Redact)
	return r
}

// maskValues masks the config's secrets in what the servers said that the
// report quotes: their self-description, the tool text in findings and in
// lock changes. Names stay as advertised: they identify rows.
func maskValues(r *Report, red *model.Redactor) {
	if red.Longest() == 0 {
		return
	}
	for i := range r.Findings {
		r.Findings[i].Evidence = red.Values(r.Findings[i].Evidence)
	}
	for i := range r.Servers {
		s := &r.Servers[i]
		s.ServerInfo.Name, s.ServerInfo.Version = red.Values(s.ServerInfo.Name), red.Values(s.ServerInfo.Version)
		if s.Lock == nil {
			continue
		}
		for _, c := range s.Lock.Changes {
			for j := range c.Fields {
				c.Fields[j].Old, c.Fields[j].New = red.Values(c.Fields[j].Old), red.Values(c.Fields[j].New)
			}
		}
	}
}

// buildServer reports one server, adding its findings to fs.
func buildServer(si int, st ServerState, reg *model.Registry, profiles []model.Profile, red *model.Redactor, fs *findings) Server {
	s := Server{
		Label:      st.Label,
		Protocol:   st.Protocol,
		ServerInfo: ServerInfo{Name: st.ServerName, Version: st.ServerVer},
		Notes:      []string{},
		Missing:    []string{},
		Tools:      []Tool{},
	}
	res, listed := reg.Server(st.Label)
	listed = listed && st.Listed
	switch {
	case st.State == loader.Failed:
		// A failure can quote the config, and a server's stderr can echo
		// its credentials: both are masked.
		s.Status, s.Error, s.Stderr = "failed", red.Text(st.Err), red.Text(st.Stderr)
		ev := s.Error
		if tail := lastLines(s.Stderr, 3); tail != "" {
			ev += "; stderr: " + tail
		}
		fs.add(si, -1, Finding{Severity: Error, Kind: "server-failed", Server: st.Label, Evidence: ev})
		return s
	case !listed && st.State == loader.Closed:
		s.Status = "closed"
		return s
	case !listed:
		s.Status = "connecting"
		return s
	}
	s.Status = "ok"
	if res.Failed || len(res.Missing) > 0 {
		s.Status = "incomplete"
	}
	if st.Err != "" {
		note := red.Text(st.Err)
		s.Notes = append(s.Notes, note)
		if !slices.ContainsFunc(st.Faults, func(f model.Finding) bool { return f.Evidence == st.Err }) {
			// A listing cut short is a protocol finding already.
			fs.add(si, -1, Finding{Severity: Warning, Kind: "note", Server: st.Label, Evidence: note})
		}
	}
	if res.Failed {
		s.Error = res.Err
		fs.add(si, -1, Finding{Severity: Error, Kind: "policy-failed", Server: st.Label, Evidence: res.Err})
	}
	for _, n := range res.Notes {
		s.Notes = append(s.Notes, n)
		fs.add(si, -1, Finding{Severity: Warning, Kind: "note", Server: st.Label, Evidence: n})
	}
	s.Advertised, s.Registered = res.Advertised, res.Registered
	s.Missing = append(s.Missing, res.Missing...)
	for _, o := range res.Outcomes {
		t := Tool{
			Index:        o.Index,
			Wire:         o.Wire,
			RegisteredAs: o.Name,
			Outcome:      o.Kind.String(),
			Reason:       o.Reason,
			By:           o.By,
			Alias:        o.Alias,
			Checks:       []Check{},
		}
		if o.Index < len(st.Tools) && !st.Tools[o.Index].NameOK {
			t.NameProblem = st.Tools[o.Index].NameProblem
		}
		if rt, ok := reg.Lookup(o.Name); ok && o.Name != "" {
			t.Route = &Route{Server: rt.Server, Wire: rt.Wire}
		}
		if !o.Live() {
			fs.add(si, o.Index, Finding{Severity: Error, Kind: "tool-lost", Server: st.Label, Tool: o.Wire,
				Evidence: lostEvidence(o, t.Route)})
		}
		for _, p := range profiles {
			if o.Name == "" {
				break
			}
			c := p.Check(o)
			t.Checks = append(t.Checks, Check{Provider: c.Profile, Severity: c.Severity.String(), Message: c.Message})
			if !o.Live() || c.Severity == model.Pass {
				continue
			}
			sev := Warning
			if c.Severity == model.Fail {
				sev = Error
			}
			fs.add(si, o.Index, Finding{Severity: sev, Kind: "provider", Server: st.Label, Tool: o.Wire, Evidence: c.Message})
		}
		s.Tools = append(s.Tools, t)
	}
	return s
}

// lostEvidence says what happened to a row that has no route, and where
// calls to its name go instead.
func lostEvidence(o model.Outcome, rt *Route) string {
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
	if rt != nil && o.Kind == model.Dropped {
		fmt.Fprintf(&b, "; calls to %q go to %s's %q", o.Name, rt.Server, rt.Wire)
	}
	return b.String()
}

// summarize counts the report.
func summarize(r *Report) Summary {
	var s Summary
	s.Servers = len(r.Servers)
	for _, sv := range r.Servers {
		if sv.Status == "failed" {
			s.Failed++
		}
		s.Advertised += sv.Advertised
		s.Registered += sv.Registered
	}
	for _, f := range r.Findings {
		switch f.Severity {
		case Error:
			s.Errors++
		case Warning:
			s.Warnings++
		}
	}
	return s
}

// Worst returns the highest severity among the findings, and false when there
// are none (infos aside).
func (r *Report) Worst() (Severity, bool) {
	worst, any := Info, false
	for _, f := range r.Findings {
		if f.Severity > Info {
			worst, any = max(worst, f.Severity), true
		}
	}
	return worst, any
}

// findings gathers findings with the position they sort by: server, then
// row (-1 for the server itself), then the order they were added.
type findings struct{ list []positioned }

type positioned struct {
	f                Finding
	server, row, seq int
}

func (fs *findings) add(server, row int, f Finding) {
	fs.list = append(fs.list, positioned{f: f, server: server, row: row, seq: len(fs.list)})
}

func (fs *findings) sorted() []Finding {
	slices.SortStableFunc(fs.list, func(a, b positioned) int {
		if a.server != b.server {
			return a.server - b.server
		}
		if a.row != b.row {
			return a.row - b.row
		}
		return a.seq - b.seq
	})
	out := make([]Finding, len(fs.list))
	for i, p := range fs.list {
		out[i] = p.f
	}
	return out
}

// lastLines returns the last n non-empty lines of s, joined by " | ".
func lastLines(s string, n int) string {
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

// jsonText is how a report renders a canonical JSON value inline.
func jsonText(raw string) string {
	if raw == "" {
		return "(absent)"
	}
	if json.Valid([]byte(raw)) {
		return raw
	}
	return fmt.Sprintf("%q", raw)
}
