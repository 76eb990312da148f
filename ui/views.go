package ui

import (
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// This file is where the views read what the servers sent: every view goes
// through these accessors, never through a server's fields.

// A ref names one advertised row: a server (by index) and the row's place
// in that server's catalogue.
type ref struct {
	server, row int
}

// label is server i's label.
func (s *surface) label(i int) string { return s.servers[i].spec.Label }

// toolsOf returns the tools server i listed, and whether it listed them.
func (s *surface) toolsOf(i int) ([]model.Tool, bool) {
	sv := &s.servers[i]
	return sv.tools, sv.listed
}

// toolAt returns the tool of row r.
func (s *surface) toolAt(r ref) (model.Tool, bool) {
	if tools := s.servers[r.server].tools; r.row < len(tools) {
		return tools[r.row], true
	}
	return model.Tool{}, false
}

// relistedOf is how server i's last list differs from the one before it.
func (s *surface) relistedOf(i int) model.PinDiff { return s.servers[i].relisted }

// A serverStatus is what a server's status line says besides the
// registry's counts.
type serverStatus struct {
	transport, protocol, info string
	failed                    bool
	// deadline is when a connect in progress gives up.
	deadline time.Time
}

func (s *surface) statusOf(i int) serverStatus {
	sv := &s.servers[i]
	st := serverStatus{transport: sv.spec.Transport, protocol: sv.protocol, info: sv.info,
		failed: sv.state == loader.Failed, deadline: sv.deadline}
	if st.transport == "" {
		st.transport = config.TransportStdio
	}
	return st
}

// rowCount is how many advertised rows the listed servers have.
func (s *surface) rowCount() int {
	n := 0
	for i := range s.servers {
		if tools, listed := s.toolsOf(i); listed {
			n += len(tools)
		}
	}
	return n
}

// refOf finds the row of server label at catalogue index i.
func (s *surface) refOf(label string, i int) (ref, bool) {
	si, ok := s.byLabel[label]
	if !ok || s.results[si] == nil || i >= len(s.results[si].Outcomes) {
		return ref{}, false
	}
	return ref{si, i}, true
}

// refOfWire finds the first row of server label advertising wire.
func (s *surface) refOfWire(label, wire string) (ref, bool) {
	si, ok := s.byLabel[label]
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
func (s *surface) outcomeAt(r ref) (model.Outcome, model.Tool, bool) {
	res := s.results[r.server]
	if res == nil || r.row >= len(res.Outcomes) {
		return model.Outcome{}, model.Tool{}, false
	}
	t, _ := s.toolAt(r)
	return res.Outcomes[r.row], t, true
}

// registryFor returns the registry policy p builds from the surface,
// computed once per surface change.
func (s *surface) registryFor(i int, p model.Policy) *model.Registry {
	if s.byPolicy == nil {
		s.byPolicy = make(map[int]*model.Registry)
		s.byServer = make(map[int][]*model.ServerResult)
	}
	r, ok := s.byPolicy[i]
	if !ok {
		r = p.Apply(s.catalogues())
		s.byPolicy[i] = r
	}
	return r
}

// resultsOf returns the results of the policy at index i by server index,
// nil for a server not listed. Looking a server up by label in the registry
// costs a scan of the servers: a view asking per row would pay servers ×
// rows.
func (s *surface) resultsOf(i int) []*model.ServerResult {
	reg := s.registryFor(i, s.policies[i])
	if rs, ok := s.byServer[i]; ok {
		return rs
	}
	rs := make([]*model.ServerResult, len(s.servers))
	next := 0 // reg.Servers are the listed servers, in declaration order
	for si := range s.servers {
		if _, listed := s.toolsOf(si); !listed {
			continue
		}
		label := s.label(si)
		if next < len(reg.Servers) && reg.Servers[next].Server == label {
			rs[si] = &reg.Servers[next]
			next++
		} else if r, ok := reg.Server(label); ok {
			rs[si] = r
		}
	}
	s.byServer[i] = rs
	return rs
}
