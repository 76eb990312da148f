package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/model"
)

// A callView is the result pane of the last call.
type callView struct {
	msg callDoneMsg
}

func newCallView(msg callDoneMsg) *callView { return &callView{msg: msg} }

func (v *callView) view(c common, height int, box func(string, []string, int) string) string {
	s := c.styles
	san := model.Sanitize
	r := v.msg.result
	lines := []string{
		fmt.Sprintf("%s %s → route %s / %s   %s",
			s.Muted.Render("registry:"), s.RenamedText.Render(san(v.msg.route.Name)),
			san(v.msg.route.Server), s.In.Render(san(v.msg.route.Wire)),
			s.Muted.Render(fmt.Sprintf("%.1f ms · policy %s", float64(r.Latency.Microseconds())/1000, v.msg.policy))),
	}
	if v.msg.route.Server != v.msg.row.Server || v.msg.route.Index != v.msg.row.Index {
		lines = append(lines, s.WarnText.Render(fmt.Sprintf("invoked from %s's %s, which is unreachable: the call went to %s",
			san(v.msg.row.Server), san(v.msg.row.Wire), san(v.msg.route.Server))))
	}
	wrap := func(prefix string, b []byte) {
		indent := strings.Repeat(" ", lipgloss.Width(prefix))
		w := max(10, c.width-lipgloss.Width(prefix))
		for i, l := range strings.Split(ansi.Hardwrap(c.quote(string(b)), w, true), "\n") {
			if i == 0 {
				lines = append(lines, prefix+l)
			} else {
				lines = append(lines, indent+l)
			}
		}
	}
	if len(r.Request) > 0 {
		wrap(s.Out.Render(san(r.Server)+" → "), r.Request)
	}
	if len(r.Response) > 0 {
		wrap(s.In.Render(san(r.Server)+" ← "), r.Response)
		if mark := r.CutMark(v.msg.err); mark != "" {
			lines = append(lines, s.WarnText.Render(mark))
		}
	}
	switch {
	case cancelledCall(v.msg.err):
		lines = append(lines, s.WarnText.Render(fmt.Sprintf("cancelled after %.1f s: the server was sent notifications/cancelled",
			r.Latency.Seconds())))
	case v.msg.err != nil:
		lines = append(lines, s.ErrorText.Render("error: "+c.text(v.msg.err.Error())))
	case r.IsError:
		lines = append(lines, s.ErrorText.Render("the tool reported an error (isError)"))
	}
	return box(s.PaneTitle.Render("CALL"), lines, height)
}
