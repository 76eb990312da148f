package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// sightings are what the servers showed each client profile the session
// has connected as (c switches): one surface.Sighting per client, the
// newest settled snapshot for it. surface.Gated compares them; the
// interface runs no handshake of its own for that, so a client is compared
// once the user has connected as it.
type sightings struct {
	by  []surface.Sighting
	gen []int // the snapshot generation each sighting was taken at
	// gated is surface.Gated of by.
	gated []surface.GatedTool
}

// sight keeps the snapshot as the sighting of the client connected as,
// once every server has settled and no reconnect is pending.
func (m *Model) sight() {
	snap := m.live.snap
	if len(m.clients.pending) > 0 || !snap.Settled() {
		return
	}
	who := m.client
	if who == "" {
		who = "mcplens"
	}
	sg := &m.live.sights
	at := -1
	for i, s := range sg.by {
		if s.Clients[0] == who {
			at = i
		}
	}
	switch {
	case at < 0:
		sg.by = append(sg.by, surface.Sighting{Clients: []string{who}, Snap: snap.Clone()})
		sg.gen = append(sg.gen, snap.Gen())
	case sg.gen[at] == snap.Gen():
		return
	default:
		sg.by[at].Snap, sg.gen[at] = snap.Clone(), snap.Gen()
	}
	sg.gated = surface.Gated(sg.by)
	m.live.dropFindings()
}

// clientsSeen names the clients compared, in the order connected as.
func (sg *sightings) clientsSeen() []string {
	var out []string
	for _, s := range sg.by {
		out = append(out, s.Clients...)
	}
	return out
}

// A gatedView lists the tools a server advertised to some of the clients
// connected as and not to others (surface.Gated), with the clients on each
// side.
type gatedView struct{ list }

func (v *gatedView) tools() []surface.GatedTool { return v.e.live.sights.gated }

func (v *gatedView) Update(msg tea.Msg) tea.Cmd {
	v.moveKey(msg, len(v.tools()))
	return nil
}

func (v *gatedView) refresh() tea.Cmd { return nil }

// selected is the gated tool's row, when the client connected as now was
// advertised it.
func (v *gatedView) selected() (ref, bool) {
	tools := v.tools()
	if c := v.sc.cursor; c < len(tools) {
		return v.e.live.refOfWire(tools[c].Server, tools[c].Tool)
	}
	return ref{}, false
}

// note is the view's explanation line: which clients are compared, and
// how to add one (e reads it whole).
func (v *gatedView) note() string {
	seen := v.e.live.sights.clientsSeen()
	if len(seen) < 2 {
		return "connected as " + strings.Join(seen, "") + " only: c connects as another client, and what each is advertised is compared here (check --clients all compares every client at once)"
	}
	return "compared: " + strings.Join(seen, ", ") + " · c connects as another client and adds it"
}

func (v *gatedView) View() string {
	e := v.e
	s := e.c.styles
	tools := v.tools()
	note := v.note()
	sw := max(8, min(20, v.width/8))
	tw := max(12, min(32, v.width/4))
	cw := max(10, (v.width-sw-tw-6)/2)
	head := "  " + cell("SERVER", sw) + " " + cell("TOOL", tw) + " " + cell("ADVERTISED TO", cw) + " NOT TO"
	body := e.c.listView(head, v.width, max(1, v.height-1), len(tools), v.sc, func(i int) string {
		g := tools[i]
		name := model.Sanitize(g.Tool)
		if g.AppOnly { // the columns are then the clients whose models see it, and not
			name += " (app only: models)"
		}
		return "  " + cell(model.Sanitize(g.Server), sw) + " " + cell(name, tw) + " " +
			s.OKText.Render(cell(model.Sanitize(strings.Join(g.To, " ")), cw)) + " " +
			s.WarnText.Render(model.Sanitize(strings.Join(g.NotTo, " ")))
	})
	return s.Muted.Render(truncate(model.Sanitize(note), v.width, "…")) + "\n" + body
}
