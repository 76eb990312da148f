package ui

import (
	"fmt"
	"strings"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// serverLine is a server's status line: icon, label, transport, state,
// protocol and the advertised/registered counts.
func (v *serversView) serverLine(i int) string {
	e := v.e
	s := e.c.styles
	st := e.live.statusOf(i)
	r := e.live.results[i]
	icon, state := e.spin, s.Muted.Render("connecting"+countdown(st.deadline))
	if e.can.observed != nil {
		state = s.Muted.Render("waiting for its tap") // a tap's client connects it, not mcplens
	}
	switch st.status {
	case surface.Failed:
		icon, state = s.ErrorText.Render("✗"), s.ErrorText.Render("failed")
	case surface.NeedsLogin:
		icon, state = s.WarnText.Render("!"), s.WarnText.Render("needs login")
	case surface.Closed:
		icon, state = s.Muted.Render("·"), s.Muted.Render("closed")
	case surface.Disconnected:
		icon, state = s.Muted.Render("○"), s.Muted.Render("disconnected")
	case surface.Incomplete:
		icon, state = s.WarnText.Render("▲"), s.WarnText.Render("incomplete")
	case surface.PolicyFailed:
		icon, state = s.ErrorText.Render("✗"), s.ErrorText.Render("failed by policy")
	case surface.OK:
		icon, state = s.OKText.Render("●"), s.OKText.Render("ok")
	}
	parts := []string{icon + " " + s.Section.Render(model.Sanitize(e.live.label(i))), s.Muted.Render(st.transport), state}
	if e.live.folded[i] && !e.live.filter.active() {
		parts = append(parts, s.WarnText.Render("folded (space)"))
	}
	if st.ended {
		parts = append(parts, s.Muted.Render("ended: as last listed"))
	}
	if r != nil {
		if st.protocol != "" {
			parts = append(parts, s.Muted.Render(st.protocol))
		}
		parts = append(parts, fmt.Sprintf("advertised %d · registered %d", r.Advertised, r.Registered))
		if len(r.Missing) > 0 {
			parts = append(parts, s.WarnText.Render(fmt.Sprintf("missing %d", len(r.Missing))))
		}
		if st.info != "" {
			parts = append(parts, s.Muted.Render(e.c.quote(st.info)))
		}
	}
	return strings.Join(parts, "  ")
}
