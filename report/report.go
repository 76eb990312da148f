package report

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// Build renders an assessment (surface.Assess) of the config named config
// as a report: every server, row, collision and finding, as the assessment
// has them. It is pure: the same assessment gives the same report.
func Build(config string, a *surface.Assessment) *Report {
	r := &Report{
		Version:       Version,
		Config:        config,
		Policy:        a.Policy.Name,
		PolicySummary: a.Policy.Summary,
		Providers:     []string{},
		Servers:       []Server{},
		Collisions:    []Collision{},
		Findings:      []Finding{},
	}
	for _, p := range a.Profiles {
		r.Providers = append(r.Providers, p.Name)
	}
	for si, v := range a.Servers {
		s := buildServer(a, si)
		if v.Lock != nil {
			s.Lock = serverLock(v.Lock, s.Tools)
		}
		r.Servers = append(r.Servers, s)
	}
	for _, c := range a.Registry.Collisions() {
		col := Collision{Name: c.Name, Class: c.Class.String()}
		for j, o := range c.Rows {
			col.Claims = append(col.Claims, Claim{Server: o.Server, Wire: o.Wire, Outcome: o.Kind.String(), Won: j == c.Winner})
		}
		r.Collisions = append(r.Collisions, col)
	}
	if a.Lock != nil {
		r.Lock = &Lock{Path: a.LockPath, Updated: a.LockUpdated, Stale: append([]string{}, a.Stale...)}
	}
	if a.Prompts != nil && slices.ContainsFunc(r.Servers, func(s Server) bool { return len(s.Prompts) > 0 }) {
		r.PromptNaming = model.PromptPolicyFor(a.Policy.Name).Summary
		r.PromptCollisions = promptCollisions(a.Prompts)
	}
	r.Findings = append(r.Findings, a.Findings...)
	r.Gated = a.Gated
	r.Summary = summarize(r)
	maskValues(r, a.Snapshot.Redact)
	return r
}

// maskValues masks the config's secrets in what the servers said that the
// report quotes: their self-description and the tool text in lock changes
// (findings are masked already). Names stay as advertised: they identify
// rows.
func maskValues(r *Report, red *model.Redactor) {
	if red.Longest() == 0 {
		return
	}
	for i := range r.Servers {
		s := &r.Servers[i]
		s.ServerInfo.Name, s.ServerInfo.Version = red.Values(s.ServerInfo.Name), red.Values(s.ServerInfo.Version)
		s.ServerInfo.Title, s.ServerInfo.Website = red.Values(s.ServerInfo.Title), red.Values(s.ServerInfo.Website)
		s.Instructions = red.Values(s.Instructions)
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

// buildServer renders server si of the assessment.
func buildServer(a *surface.Assessment, si int) Server {
	st, v, red := &a.Snapshot.Servers[si], a.Servers[si], a.Snapshot.Redact
	s := Server{
		Label:           st.Label(),
		Line:            st.Spec.Line,
		Col:             st.Spec.Col,
		Status:          string(v.Status),
		Protocol:        st.Protocol,
		ProtocolSettled: st.Facts.Settled,
		ServerInfo:      ServerInfo{Name: st.ServerName, Version: st.ServerVersion, Title: st.Facts.Title, Website: st.Facts.Website},
		Capabilities:    append([]string{}, st.Facts.Capabilities...),
		Instructions:    st.Facts.Instructions,
		InstructionsCut: st.Facts.Cut,
		Notes:           []string{},
		Missing:         []string{},
		Tools:           []Tool{},
	}
	res := v.Result
	switch {
	case v.Status == surface.Failed || v.Status == surface.NeedsLogin:
		// A failure can quote the config, and a server's stderr can echo
		// its credentials: both are masked.
		s.Error, s.Stderr = red.Text(st.Err), red.Text(st.Stderr)
		return s
	case res == nil:
		return s
	}
	buildOffers(a, si, &s)
	if st.Err != "" {
		s.Notes = append(s.Notes, red.Text(st.Err))
	}
	s.Error = v.Error
	s.Notes = append(s.Notes, res.Notes...)
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
		if rt, ok := a.Route(o); ok {
			t.Route = &Route{Server: rt.Server, Wire: rt.Wire}
		}
		for _, p := range a.Profiles {
			if o.Name == "" {
				break
			}
			c := p.Check(o)
			t.Checks = append(t.Checks, Check{Provider: c.Profile, Severity: c.Severity.String(), Message: c.Message})
		}
		s.Tools = append(s.Tools, t)
	}
	return s
}

// summarize counts the report.
func summarize(r *Report) Summary {
	var s Summary
	s.Servers = len(r.Servers)
	for _, sv := range r.Servers {
		if sv.Status == string(surface.Failed) {
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

// facts is the server's self-description beyond its name, as
// surface.Facts shows it.
func (s Server) facts() mcpsession.ServerFacts {
	return mcpsession.ServerFacts{
		Capabilities: s.Capabilities,
		Instructions: s.Instructions,
		Cut:          s.InstructionsCut,
		Title:        s.ServerInfo.Title,
		Website:      s.ServerInfo.Website,
	}
}

// factWidth and factLines bound the instructions in text and Markdown.
const factWidth, factLines = 96, 8
