package ui

import (
	"time"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// This file is where the views read what the servers sent: every view goes
// through these accessors, never through a server's fields.

// A ref names one advertised row: a server (by index) and the row's place
// in that server's catalogue.
type ref struct {
	server, row int
}

// label is server i's label.
func (s *liveState) label(i int) string { return s.snap.Servers[i].Label() }

// labels returns every server's label, in the snapshot's order: the
// servers the wire and log panes cycle through.
func (s *liveState) labels() []string {
	out := make([]string, len(s.snap.Servers))
	for i := range s.snap.Servers {
		out[i] = s.label(i)
	}
	return out
}

// toolsOf returns the tools server i listed, and whether it listed them.
func (s *liveState) toolsOf(i int) ([]model.Tool, bool) {
	sv := &s.snap.Servers[i]
	return sv.Tools, sv.Listed
}

// toolAt returns the tool of row r.
func (s *liveState) toolAt(r ref) (model.Tool, bool) {
	if tools := s.snap.Servers[r.server].Tools; r.row < len(tools) {
		return tools[r.row], true
	}
	return model.Tool{}, false
}

// relistedOf is how server i's last list differs from the one before it.
func (s *liveState) relistedOf(i int) model.PinDiff { return s.relists[i].diff }

// A serverStatus is what a server's status line says besides the
// registry's counts.
type serverStatus struct {
	transport, protocol, info string
	// status is the assessment's word on the server (surface.Status).
	status surface.Status
	// deadline is when a connect in progress gives up.
	deadline time.Time
	// ended is set when the server's connection ended after its tools
	// were listed: they are what it last listed (a tap that ended).
	ended bool
}

func (s *liveState) statusOf(i int) serverStatus {
	sv := &s.snap.Servers[i]
	st := serverStatus{transport: sv.Spec.Transport, protocol: sv.Protocol, info: sv.Info(),
		status: s.a.Servers[i].Status, deadline: sv.Deadline, ended: sv.State == mcpsession.Closed && sv.Listed}
	if st.transport == "" {
		st.transport = config.TransportStdio
	}
	return st
}

// rowCount is how many advertised rows the listed servers have.
func (s *liveState) rowCount() int {
	n, _ := s.snap.Rows()
	return n
}

// refOf finds the row of server label at catalogue index i.
func (s *liveState) refOf(label string, i int) (ref, bool) {
	si, ok := s.snap.Index(label)
	if !ok || s.results[si] == nil || i >= len(s.results[si].Outcomes) {
		return ref{}, false
	}
	return ref{si, i}, true
}

// refOfWire finds the first row of server label advertising wire.
func (s *liveState) refOfWire(label, wire string) (ref, bool) {
	si, ok := s.snap.Index(label)
	if !ok {
		return ref{}, false
	}
	tools, _ := s.toolsOf(si)
	for i, t := range tools {
		if t.NameOK && t.Name == wire {
			return s.refOf(label, i)
		}
	}
	return ref{}, false
}

// outcomeAt returns the active policy's outcome for r and its tool.
func (s *liveState) outcomeAt(r ref) (model.Outcome, model.Tool, bool) {
	if r.server < 0 || r.server >= len(s.results) {
		return model.Outcome{}, model.Tool{}, false
	}
	res := s.results[r.server]
	if res == nil || r.row >= len(res.Outcomes) {
		return model.Outcome{}, model.Tool{}, false
	}
	t, _ := s.toolAt(r)
	return res.Outcomes[r.row], t, true
}

// listing returns view v's component.
func (m *Model) listing(v view) listing {
	switch v {
	case viewRegistry:
		return &m.registry
	case viewCompare:
		return &m.compare
	case viewCollisions:
		return &m.collisions
	case viewFindings:
		return &m.findings
	case viewOffers:
		return &m.offers
	case viewGated:
		return &m.gated
	}
	return &m.servers
}
