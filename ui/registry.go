package ui

import (
	"github.com/mcplens/mcplens/model"
)

// registryView is the flat merged table a client would hand to the model:
// registered name → server and wire name, in registration order.
func (m Model) registryView(height int) string {
	routes := m.surface.reg.Routes
	w := max(16, min(64, m.c.width*45/100))
	sw := max(8, min(20, m.c.width/8))
	cols := m.columns()
	head := "  " + cell("REGISTERED NAME", w) + " " + cell("SERVER", sw) + " " + cell("WIRE NAME", cols.wire)
	for _, p := range m.profiles {
		head += " " + cell(p.Name, cols.profile)
	}
	return m.listView(head, len(routes), m.scroll[viewRegistry], height, func(i int) string {
		r := routes[i]
		o := model.Outcome{Server: r.Server, Wire: r.Wire, Name: r.Name, Index: r.Index}
		row := "  " + m.c.styles.painters().renamed.Render(cell(model.Sanitize(r.Name), w)) + " " +
			cell(model.Sanitize(r.Server), sw) + " " + cell(model.Sanitize(r.Wire), cols.wire)
		for _, p := range m.profiles {
			row += " " + cell(m.checkMark(p, o), cols.profile)
		}
		return row
	})
}
