package ui

import (
	"fmt"
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/model"
)

// observedCalls are the calls a tap shows a real client made.
type observedCalls []capture.Call

// pickPolicy makes the policy named the one shown, as p does: a client
// the backend then shows does not change it. It reports whether the
// policy exists.
func (m *Model) pickPolicy(name string) bool {
	m.clients.policyPicked = m.setPolicy(name)
	return m.clients.policyPicked
}

// takeObserved takes the calls the backend shows so far and, the first
// time it knows the client, and neither a client nor a policy was chosen,
// takes that client's profile and policy.
func (m *Model) takeObserved() {
	b := m.can.observed
	if b == nil {
		return
	}
	m.observed, m.unkept = b.Observed(), b.Unkept()
	if m.client != "" || m.clients.policyPicked {
		return
	}
	if _, p, ok := b.Client(); ok {
		m.setClient(p.Key(), "")
		m.setPolicy(p.Policy)
	}
}

// observedLines is the line the detail pane gives the calls recorded to
// o's server carrying its wire name: their number, the slowest answer, and
// the verdict, which is the same for each (it depends on server and wire
// alone).
func (m *Model) observedLines(o model.Outcome) []string {
	n, answered := 0, 0
	var slowest time.Duration
	for _, c := range m.observed {
		if c.Server == o.Server && c.Wire == o.Wire {
			n++
			if c.Answered {
				answered++
				slowest = max(slowest, c.Latency)
			}
		}
	}
	if n == 0 {
		return nil
	}
	took := fmt.Sprintf("observed: %d call(s), %d answered", n, answered)
	if answered > 0 {
		took += ", slowest " + slowest.Round(time.Microsecond).String()
	}
	return []string{m.c.styles.Muted.Render(took+" · ") + m.verdict(o.Server, o.Wire)}
}

// verdict is whether a call to server carrying wire matches the route the
// registry shown predicts (model.JudgeCall), and why.
func (e *env) verdict(server, wire string) string {
	s := e.c.styles
	v := model.JudgeCall(e.live.reg, server, wire)
	mark := s.OKText.Render("✓ matches")
	if !v.Matches {
		mark = s.ErrorText.Render("✗ contradicts")
	}
	return mark + " " + model.Sanitize(v.Why)
}

// A callsView is the calls pane: every call the tapped client made, in
// the order made, each judged against the registry shown. It follows the
// newest until scrolled up. A call to a name no listed tool has is here
// too, though no row of the views is its.
type callsView struct {
	e             *env
	width, height int
	follow
}

func (v *callsView) SetSize(width, height int) { v.width, v.height = width, height }

func (v *callsView) takes(msg tea.KeyPressMsg) bool { return isMove(msg, v.e.c.keys) }

func (v *callsView) Update(msg tea.Msg) tea.Cmd {
	if msg, ok := msg.(tea.KeyPressMsg); ok {
		v.scroll(msg, v.e.c.keys, len(v.e.observed), v.height-1)
	}
	return nil
}

func (v *callsView) ShortHelp() []key.Binding {
	k := v.e.c.keys
	return []key.Binding{k.Up, k.Down, k.Calls, k.Policy, k.Client}
}

func (v *callsView) FullHelp() [][]key.Binding { return tailHelp(v.e.c.keys, v.e.c.keys.Calls) }

func (v *callsView) View() string {
	m, c := v.e, v.e.c
	calls := m.observed
	info := " " + strconv.Itoa(len(calls)) + " calls · judged under " + m.policies[m.policy].Name
	if m.client != "" {
		info += " · client " + model.Sanitize(m.client)
	}
	if m.can.observed == nil {
		info = " none: this pane shows a tapped client's calls (mcplens watch, or a recording opened)"
	}
	title := c.styles.PaneTitle.Render("CLIENT CALLS") + c.styles.Muted.Render(info)
	if u := m.unkept.String(); u != "" {
		title += c.styles.Muted.Render(" · ") + c.styles.WarnText.Render(u)
	}
	start, end := v.window(len(calls), v.height-1)
	return tailView(c, title, v.height, calls[start:end], func(c common, call capture.Call) string {
		return callRow(c, call) + "  " + m.verdict(call.Server, call.Wire)
	})
}

// callRow is one call: when it was made, its server, wire name, arguments
// (cut, escaped) and how it was answered.
func callRow(c common, call capture.Call) string {
	s := c.styles
	head := s.Muted.Render(call.Sent.Local().Format("15:04:05.000")) + " " + model.Sanitize(call.Server) + " " +
		s.Text.Render(model.Sanitize(call.Wire))
	return head + " " + c.quote(cut(c, string(call.Args), 60)) + " " + s.Muted.Render("("+c.quote(cut(c, call.Took(), 80))+")")
}

// toggleCalls opens the calls pane, or closes it when open.
func (m *Model) toggleCalls() {
	if m.pane == paneCalls {
		m.pane = paneDetail
		return
	}
	m.pane = paneCalls
}

// noServers is what the servers view says while it has none.
func (e *env) noServers() string {
	if e.can.observed != nil {
		return "No tap has started yet: run a client whose config runs mcplens tap (mcplens tap install CONFIG)."
	}
	return "No servers: the config declares none."
}
