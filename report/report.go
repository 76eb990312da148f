package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
)

// Version is the version of the JSON report. Within one version fields are
// only ever added; a field removed or changed in meaning is a new version.
const Version = 1

// A Level grades a finding. A run fails when it finds something at or
// above the level it was told to fail on.
type Level int

const (
	// Info never fails a run: context, such as lock changes being accepted
	// by --update-lock.
	Info Level = iota
	// Warning: accepted today, or advice broken (a provider's documented
	// limit, a finding of warn severity, a note on a server).
	Warning
	// Error: a server failed, a tool was lost (dropped or displaced), a
	// registered name fails a selected provider, a serious finding, or a
	// server's tools differ from the lock.
	Error
)

// String returns the level as reports spell it.
func (l Level) String() string {
	switch l {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// MarshalText writes the level as its name in JSON.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText reads a level's name, so a report reads back.
func (l *Level) UnmarshalText(b []byte) error {
	for _, v := range []Level{Info, Warning, Error} {
		if string(b) == v.String() {
			*l = v
			return nil
		}
	}
	return fmt.Errorf("reading report: unknown level %q", b)
}

// A Report is everything a check found: per server, what it advertised and
// what the policy did with each row; then the collisions, the findings and
// the lock comparison. It is plain data, the same for every format.
type Report struct {
	Version int `json:"version"`
	// Config names the config: its path, or "demo config".
	Config string `json:"config"`
	Policy string `json:"policy"`
	// PolicySummary is the policy's rule in a few words.
	PolicySummary string      `json:"policy_summary"`
	Providers     []string    `json:"providers"`
	Summary       Summary     `json:"summary"`
	Servers       []Server    `json:"servers"`
	Collisions    []Collision `json:"collisions"`
	Findings      []Finding   `json:"findings"`
	// Lock is set when the tools were compared with a lock file.
	Lock *Lock `json:"lock,omitempty"`
}

// A Summary counts what the report holds.
type Summary struct {
	Servers    int `json:"servers"`
	Failed     int `json:"failed"`
	Advertised int `json:"advertised"`
	Registered int `json:"registered"`
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
}

// A Server is one configured server.
type Server struct {
	Label string `json:"label"`
	// Status is "ok", "incomplete" (a tool it advertised has no route, or
	// the policy failed it), "failed" (no connection or listing),
	// "connecting" or "closed".
	Status string `json:"status"`
	// Error is why the server failed, or why the policy failed it.
	Error string `json:"error"`
	// Notes are messages that do not fail the server: an unfinished
	// listing, the policy's notes.
	Notes []string `json:"notes"`
	// Stderr is the tail of a failed server's stderr.
	Stderr     string     `json:"stderr"`
	Protocol   string     `json:"protocol"`
	ServerInfo ServerInfo `json:"server_info"`
	Advertised int        `json:"advertised"`
	Registered int        `json:"registered"`
	// Missing lists advertised wire names left without a route, sorted.
	Missing []string `json:"missing"`
	Tools   []Tool   `json:"tools"`
	// Lock is set when the tools were compared with a lock file.
	Lock *ServerLock `json:"lock,omitempty"`
}

// ServerInfo is what the server said it is: for display only, never an
// identity.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// A Tool is one advertised row and what the policy did with it.
type Tool struct {
	// Index is the row's position in the server's tools/list.
	Index int `json:"index"`
	// Wire is the wire name; "" for a row without a usable name, whose
	// NameProblem says why.
	Wire        string `json:"wire"`
	NameProblem string `json:"name_problem"`
	// RegisteredAs is the registered name, or for a dropped or displaced
	// row the name it would have had ("" when the policy formed none).
	RegisteredAs string `json:"registered_as"`
	// Outcome is "registered", "renamed", "dropped" or "displaced".
	Outcome string `json:"outcome"`
	Reason  string `json:"reason"`
	// By is the server that won the name or displaced the row.
	By string `json:"by"`
	// Alias is a policy's legacy alias (qwen), not a registry key.
	Alias string `json:"alias"`
	// Route is where a call to RegisteredAs goes (possibly another
	// server's row); nil when the name is not in the registry.
	Route *Route `json:"route"`
	// Checks has one entry per selected provider, empty when the row has
	// no registered name.
	Checks []Check `json:"checks"`
	// Lock is "unchanged", "changed" or "added" when the tools were
	// compared with a lock file, else "".
	Lock string `json:"lock,omitempty"`
}

// A Route is a registry entry: server label and wire name.
type Route struct {
	Server string `json:"server"`
	Wire   string `json:"wire"`
}

// A Check is one provider's verdict on a registered name.
type Check struct {
	Provider string `json:"provider"`
	// Severity is "pass", "warn" or "fail".
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// A Collision is one registered name claimed by more than one row.
type Collision struct {
	Name  string `json:"name"`
	Class string `json:"class"`
	// Claims are the rows that wanted Name, in processing order.
	Claims []Claim `json:"claims"`
}

// A Claim is one row that wanted a collided name.
type Claim struct {
	Server  string `json:"server"`
	Wire    string `json:"wire"`
	Outcome string `json:"outcome"`
	// Won reports whether this row's route holds the name.
	Won bool `json:"won"`
}

// A Finding is one thing worth a look, with its evidence.
type Finding struct {
	Level Level `json:"level"`
	// Kind is "server-failed", "policy-failed", "tool-lost", "provider",
	// "note", "lock", or one of the model's finding kinds ("lookalike",
	// "cross-reference", "invisible-text", "control-text", "wire-name").
	Kind   string `json:"kind"`
	Server string `json:"server"`
	// Tool is a wire name, or "" for a server-level finding.
	Tool     string `json:"tool"`
	Evidence string `json:"evidence"`
}

// A Lock is the outcome of comparing with a lock file.
type Lock struct {
	Path string `json:"path"`
	// Updated reports whether the lock file was rewritten with what this
	// run saw (--update-lock): the changes listed were accepted.
	Updated bool `json:"updated"`
	// Stale lists servers the lock pins that the config no longer has.
	Stale []string `json:"stale"`
}

// A ServerLock is one server compared with its pin.
type ServerLock struct {
	// Status is "unchanged", "changed", "unpinned" (the lock has no entry
	// for the server) or "not-compared" (its tools were never listed).
	Status string `json:"status"`
	// Transport is set when the server is now reached another way.
	Transport *TransportChange `json:"transport"`
	Changes   []ToolChange     `json:"changes"`
}

// A TransportChange is the server label pointing at another server.
type TransportChange struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// A ToolChange is one tool added, removed or changed since the lock.
type ToolChange struct {
	Wire string `json:"wire"`
	// Change is "added", "removed" or "changed".
	Change    string        `json:"change"`
	OldSHA256 string        `json:"old_sha256"`
	NewSHA256 string        `json:"new_sha256"`
	Fields    []FieldChange `json:"fields"`
}

// A FieldChange is one field of a tool's definition that changed.
type FieldChange struct {
	// Path names the field: "description", "inputSchema.properties.limit".
	Path string `json:"path"`
	// Op is "added", "removed" or "changed".
	Op string `json:"op"`
	// Old and New are the values as canonical JSON ("" when absent).
	Old string `json:"old"`
	New string `json:"new"`
}

// A ServerState is what is known of one configured server: the loader's
// last word on it. The check command and the interface both hold one per
// server.
type ServerState struct {
	Label     string
	Transport model.Transport
	State     loader.State
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
	// client would not act on (loader.ServerSpec.Findings).
	Config []string
	// Faults are the protocol faults the server committed (the loader's
	// Event.Findings).
	Faults []model.Finding
}

// Apply records a loader event for the server it is about.
func (s *ServerState) Apply(ev loader.Event) {
	if ev.Wire || ev.Server != s.Label {
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

// TransportOf returns how a configured server is reached, the identity its
// pin records: its URL when it has one, else its command and arguments, as
// run (the pin keeps only their fingerprint), shown with their secrets
// masked (ServerSpec.Redacted). A lock file is meant to be committed.
func TransportOf(spec loader.ServerSpec) model.Transport {
	r := spec.Redacted()
	if spec.URL != "" {
		return model.Transport{URL: spec.URL, Shown: r.URL}
	}
	return model.Transport{Command: spec.Command, Args: slices.Clone(spec.Args), Shown: model.CommandLine(r.Command, r.Args)}
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
	// (loader.NewRedactor); nil masks credential syntax only.
	Redact *model.Redactor
	// ConfigFindings are the config file's own findings
	// (loader.Config.Findings).
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
		lvl := Warning
		if f.Severity == model.Fail {
			lvl = Error
		}
		si, row := pos(f.Server, f.Tool)
		fs.add(si, row, Finding{Level: lvl, Kind: f.Kind, Server: f.Server, Tool: f.Tool, Evidence: f.Evidence})
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
		fs.add(si, -1, Finding{Level: Error, Kind: "server-failed", Server: st.Label, Evidence: ev})
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
			fs.add(si, -1, Finding{Level: Warning, Kind: "note", Server: st.Label, Evidence: note})
		}
	}
	if res.Failed {
		s.Error = res.Err
		fs.add(si, -1, Finding{Level: Error, Kind: "policy-failed", Server: st.Label, Evidence: res.Err})
	}
	for _, n := range res.Notes {
		s.Notes = append(s.Notes, n)
		fs.add(si, -1, Finding{Level: Warning, Kind: "note", Server: st.Label, Evidence: n})
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
			fs.add(si, o.Index, Finding{Level: Error, Kind: "tool-lost", Server: st.Label, Tool: o.Wire,
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
			lvl := Warning
			if c.Severity == model.Fail {
				lvl = Error
			}
			fs.add(si, o.Index, Finding{Level: lvl, Kind: "provider", Server: st.Label, Tool: o.Wire, Evidence: c.Message})
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
		switch f.Level {
		case Error:
			s.Errors++
		case Warning:
			s.Warnings++
		}
	}
	return s
}

// Worst returns the highest level among the findings, and false when there
// are none (infos aside).
func (r *Report) Worst() (Level, bool) {
	worst, any := Info, false
	for _, f := range r.Findings {
		if f.Level > Info {
			worst, any = max(worst, f.Level), true
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
