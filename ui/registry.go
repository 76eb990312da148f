package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
)

// A registryView is the flat merged table a client would hand to the
// model: registered name → server and wire name, in registration order.
type registryView struct{ list }

func (v *registryView) routes() []model.Route { return v.e.live.reg.Routes }

func (v *registryView) Update(msg tea.Msg) tea.Cmd {
	v.moveKey(msg, len(v.routes()))
	return nil
}

func (v *registryView) refresh() tea.Cmd { return nil }

func (v *registryView) selected() (ref, bool) {
	routes := v.routes()
	if c := v.sc.cursor; c < len(routes) {
		return v.e.live.refOf(routes[c].Server, routes[c].Index)
	}
	return ref{}, false
}

func (v *registryView) View() string {
	e := v.e
	routes := v.routes()
	w := max(16, min(64, v.width*45/100))
	sw := max(8, min(20, v.width/8))
	cols := e.columns(v.width)
	head := "  " + cell("REGISTERED NAME", w) + " " + cell("SERVER", sw) + " " + cell("WIRE NAME", cols.wire)
	head += e.checksHead(cols)
	return v.draw(head, len(routes), func(i int) string {
		r := routes[i]
		o := model.Outcome{Server: r.Server, Wire: r.Wire, Name: r.Name, Index: r.Index}
		row := "  " + e.c.styles.painters().renamed.Render(cell(model.Sanitize(r.Name), w)) + " " +
			cell(model.Sanitize(r.Server), sw) + " " + cell(model.Sanitize(r.Wire), cols.wire)
		return row + e.checks(cols, o)
	})
}
