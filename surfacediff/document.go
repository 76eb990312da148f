package surfacediff

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// Version is the version of the snapshot document. Within one version
// fields are only ever added.
const Version = 1

// Kind marks a snapshot document, so a file is told from a lock or a
// config.
const Kind = "mcplens-snapshot"

// A Document is one config's tool surface as one client saw it.
type Document struct {
	Kind    string `json:"kind"`
	Version int    `json:"version"`
	// Config names the config: its path, or "demo config".
	Config string `json:"config"`
	// Client is the client profile connected as, "" for mcplens's own.
	Client    string   `json:"client,omitempty"`
	Providers []string `json:"providers"`
	Servers   []Server `json:"servers"`
	// Policies has the registry under every naming policy; nil for a
	// document read from a lock, which holds definitions only.
	Policies []Policy `json:"policies"`
}

// A Server is one configured server and what it advertised.
type Server struct {
	Label string `json:"label"`
	// Line and Col are where the config declares it, 0 for no file.
	Line int `json:"line,omitempty"`
	Col  int `json:"col,omitempty"`
	// Endpoint is how it is reached, secrets masked; Fingerprint tells
	// whether two endpoints are the same (model.Endpoint.Fingerprint).
	Endpoint    string `json:"endpoint"`
	Fingerprint string `json:"fingerprint"`
	// Failed reports whether it did not start, connect or list; Error says
	// why, or notes an unfinished listing.
	Failed       bool     `json:"failed"`
	Error        string   `json:"error,omitempty"`
	Protocol     string   `json:"protocol,omitempty"`
	Name         string   `json:"server_name,omitempty"`
	Version      string   `json:"server_version,omitempty"`
	Title        string   `json:"server_title,omitempty"`
	Website      string   `json:"server_website,omitempty"`
	Capabilities []string `json:"capabilities,omitempty"`
	Instructions string   `json:"instructions,omitempty"`
	// Listed reports whether Tools is what it advertised.
	Listed bool   `json:"listed"`
	Tools  []Tool `json:"tools"`
}

// A Tool is one advertised row.
type Tool struct {
	Index int `json:"index"`
	// Wire is the wire name, "" for a row without a usable one.
	Wire   string `json:"wire"`
	SHA256 string `json:"sha256,omitempty"`
	// Definition is the canonical definition (model.CanonicalDefinition),
	// the config's secrets masked; absent when masking would break it.
	Definition json.RawMessage `json:"definition,omitempty"`
}

// A Policy is the surface under one naming policy.
type Policy struct {
	Name     string            `json:"name"`
	Statuses []Status          `json:"statuses"`
	Registry []Entry           `json:"registry"`
	Verdicts []Verdict         `json:"verdicts"`
	Findings []surface.Finding `json:"findings"`
}

// A Status is a server's status under a policy (surface.Verdict).
type Status struct {
	Server string `json:"server"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
}

// An Entry is one advertised row's outcome under a policy.
type Entry struct {
	Server     string `json:"server"`
	Index      int    `json:"index"`
	Wire       string `json:"wire"`
	Registered string `json:"registered"`
	Outcome    string `json:"outcome"`
	Reason     string `json:"reason,omitempty"`
	By         string `json:"by,omitempty"`
}

// Live reports whether the entry leaves a route in the registry.
func (e Entry) Live() bool { return e.Outcome == "registered" || e.Outcome == "renamed" }

// A Verdict is a provider's check of a registered name that did not pass.
type Verdict struct {
	Server   string `json:"server"`
	Wire     string `json:"wire"`
	Provider string `json:"provider"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// Capture is the document of snap, the settled servers of the config
// named config, as the client named client ("" for mcplens's own) saw
// them, with profiles' verdicts under every policy.
func Capture(config, client string, snap *surface.Snapshot, profiles []model.Profile) *Document {
	return CaptureUnder(config, client, snap, profiles, nil)
}

// CaptureUnder is Capture under the policies named only (every policy when
// nil): a diff compares one, and each policy of a document of many
// servers costs a registry of every row.
func CaptureUnder(config, client string, snap *surface.Snapshot, profiles []model.Profile, policies []string) *Document {
	d := &Document{Kind: Kind, Version: Version, Config: config, Client: client, Providers: []string{}, Servers: []Server{}, Policies: []Policy{}}
	for _, p := range profiles {
		d.Providers = append(d.Providers, p.Name)
	}
	red := snap.Redact
	for i := range snap.Servers {
		d.Servers = append(d.Servers, captureServer(&snap.Servers[i], red))
	}
	observed := surface.Observed(snap)
	for _, p := range model.Policies() {
		if policies != nil && !slices.Contains(policies, p.Name) {
			continue
		}
		a := surface.Assess(snap, surface.Options{Policy: p, Profiles: profiles, Observed: observed, Fixed: true})
		d.Policies = append(d.Policies, capturePolicy(a))
	}
	return d
}

func captureServer(sv *surface.Server, red *model.Redactor) Server {
	s := Server{
		Label:        sv.Label(),
		Line:         sv.Spec.Line,
		Col:          sv.Spec.Col,
		Endpoint:     sv.Endpoint.String(),
		Fingerprint:  sv.Endpoint.Fingerprint(),
		Failed:       sv.State == mcpsession.Failed,
		Error:        red.Text(sv.Err),
		Protocol:     sv.Protocol,
		Name:         red.Values(sv.ServerName),
		Version:      red.Values(sv.ServerVersion),
		Title:        red.Values(sv.Facts.Title),
		Website:      red.Values(sv.Facts.Website),
		Capabilities: slices.Clone(sv.Facts.Capabilities),
		Instructions: red.Values(sv.Facts.Instructions),
		Listed:       sv.Listed,
		Tools:        []Tool{},
	}
	for i, t := range sv.Tools {
		row := Tool{Index: i, Wire: t.Name}
		if !t.NameOK {
			row.Wire = ""
		}
		if pin, err := model.PinTool(t); err == nil {
			row.SHA256 = pin.SHA256
			if masked := red.Values(string(pin.Definition)); json.Valid([]byte(masked)) {
				row.Definition = json.RawMessage(masked)
			}
		}
		s.Tools = append(s.Tools, row)
	}
	return s
}

func capturePolicy(a *surface.Assessment) Policy {
	p := Policy{Name: a.Policy.Name, Statuses: []Status{}, Registry: []Entry{}, Verdicts: []Verdict{}, Findings: []surface.Finding{}}
	for i, v := range a.Servers {
		p.Statuses = append(p.Statuses, Status{Server: a.Snapshot.Servers[i].Label(), Status: string(v.Status), Error: v.Error})
		if v.Result == nil {
			continue
		}
		for _, o := range v.Result.Outcomes {
			p.Registry = append(p.Registry, Entry{Server: o.Server, Index: o.Index, Wire: o.Wire, Registered: o.Name, Outcome: o.Kind.String(), Reason: o.Reason, By: o.By})
			if o.Name == "" || !o.Live() {
				continue
			}
			for _, prof := range a.Profiles {
				if c := prof.Check(o); c.Severity != model.Pass {
					p.Verdicts = append(p.Verdicts, Verdict{Server: o.Server, Wire: o.Wire, Provider: c.Profile, Severity: c.Severity.String(), Message: c.Message})
				}
			}
		}
	}
	p.Findings = append(p.Findings, a.Findings...)
	return p
}

// FromLock is the document of a lock: its servers, sorted by label, each
// with its pinned tools, sorted by wire name; no registry.
func FromLock(name string, l *model.Lock) *Document {
	d := &Document{Kind: Kind, Version: Version, Config: name, Providers: []string{}, Servers: []Server{}}
	labels := make([]string, 0, len(l.Servers))
	for label := range l.Servers {
		labels = append(labels, label)
	}
	slices.Sort(labels)
	for _, label := range labels {
		pin := l.Servers[label]
		s := Server{Label: label, Endpoint: pin.Endpoint.Redacted, Fingerprint: pin.Endpoint.Fingerprint, Listed: true, Tools: []Tool{}}
		wires := make([]string, 0, len(pin.Tools))
		for w := range pin.Tools {
			wires = append(wires, w)
		}
		slices.Sort(wires)
		for i, w := range wires {
			s.Tools = append(s.Tools, Tool{Index: i, Wire: w, SHA256: pin.Tools[w].SHA256, Definition: pin.Tools[w].Definition})
		}
		d.Servers = append(d.Servers, s)
	}
	return d
}

// Marshal writes the document in canonical JSON (RFC 8785).
func (d *Document) Marshal() ([]byte, error) {
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("writing snapshot: %w", err)
	}
	if b, err = jsonx.Canonical(b); err != nil {
		return nil, fmt.Errorf("writing snapshot: %w", err)
	}
	return append(b, '\n'), nil
}

// Parse reads a snapshot document.
func Parse(data []byte) (*Document, error) {
	var d Document
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("reading snapshot: %w", err)
	}
	switch {
	case d.Kind != Kind:
		return nil, errors.New("reading snapshot: not an mcplens snapshot (no \"kind\": \"" + Kind + "\")")
	case d.Version != Version:
		return nil, fmt.Errorf("reading snapshot: version %d, this mcplens reads version %d", d.Version, Version)
	}
	return &d, nil
}

// IsSnapshot reports whether data is a snapshot document, of any version.
func IsSnapshot(data []byte) bool {
	var head struct {
		Kind string `json:"kind"`
	}
	return json.Unmarshal(data, &head) == nil && head.Kind == Kind
}

// policy returns the document's registry under the policy named name.
func (d *Document) policy(name string) (*Policy, bool) {
	for i := range d.Policies {
		if d.Policies[i].Name == name {
			return &d.Policies[i], true
		}
	}
	return nil, false
}

// pin is the server's tools as a lock pins them, for model.Diff.
func (s *Server) pin() model.ServerPin {
	p := model.ServerPin{Endpoint: model.EndpointPin{Fingerprint: s.Fingerprint, Redacted: s.Endpoint}, Tools: map[string]model.ToolPin{}}
	for _, t := range s.Tools {
		if _, dup := p.Tools[t.Wire]; t.Wire == "" || dup {
			continue
		}
		p.Tools[t.Wire] = model.ToolPin{SHA256: t.SHA256, Definition: t.Definition}
	}
	return p
}
