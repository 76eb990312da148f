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
	si, ok := s.snap.Index(label)
	if !ok || s.results[si] == nil || i >= len(s.results[si].Outcomes) {
		return ref{}, false
	}
	return ref{si, i}, true
}

// refOfWire finds the first row of server label advertising wire.
func (s *surface) refOfWire(label, wire string) (ref, bool) {
	si, ok := s.snap.Index(label)
	if !ok {
		return ref{}, false
	}
	for i, t := range s.snap.Servers[si].Tools {
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
	if tools := s.snap.Servers[r.server].Tools; r.row < len(tools) {
		t = tools[r.row]
	}
	return res.Outcomes[r.row], t, true
}
