package ui

import (
	"github.com/mcplens/mcplens/model"
)

// A view is one way of looking at the same loaded surface.
type view int

const (
	viewServers view = iota
	viewRegistry
	viewCompare
	viewCollisions
	viewFindings
	viewCount
)

func (v view) String() string {
	return [...]string{"servers", "registry", "compare", "collisions", "findings"}[v]
}

// A ref names one advertised row: a server (by index) and the row's place
// in that server's catalogue.
type ref struct {
	server, row int
}

// selectedRef is the row the cursor is on in the current view, if any.
func (m Model) selectedRef() (ref, bool) {
	switch m.view {
	case viewServers:
		l, ok := m.selected()
		if !ok || l.kind != lineTool {
			return ref{}, false
		}
		return ref{l.server, l.outcome}, true
	case viewRegistry:
		routes := m.surface.reg.Routes
		if c := m.scroll[viewRegistry].cursor; c < len(routes) {
			return m.surface.refOf(routes[c].Server, routes[c].Index)
		}
	case viewCompare:
		rows := m.surface.compareRows(m.compareAll)
		if c := m.scroll[viewCompare].cursor; c < len(rows) {
			return rows[c], true
		}
	case viewCollisions:
		lines := m.surface.collisionLines()
		if c := m.scroll[viewCollisions].cursor; c < len(lines) && lines[c].member >= 0 {
			o := lines[c].collision.Rows[lines[c].member]
			return m.surface.refOf(o.Server, o.Index)
		}
	case viewFindings:
		f := m.surface.findingList()
		if c := m.scroll[viewFindings].cursor; c < len(f) && f[c].Tool != "" {
			return m.surface.refOfWire(f[c].Server, f[c].Tool)
		}
	}
	return ref{}, false
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
	for i, t := range s.servers[si].tools {
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
	var t model.Tool
	if tools := s.servers[r.server].tools; r.row < len(tools) {
		t = tools[r.row]
	}
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
	for si, sv := range s.servers {
		if !sv.listed {
			continue
		}
		if next < len(reg.Servers) && reg.Servers[next].Server == sv.spec.Label {
			rs[si] = &reg.Servers[next]
			next++
		} else if r, ok := reg.Server(sv.spec.Label); ok {
			rs[si] = r
		}
	}
	s.byServer[i] = rs
	return rs
}
