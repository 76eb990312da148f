package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/apphost"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/opener"
)

// `a` on a tool with an MCP App hosts the app (package apphost) on a
// loopback page and opens it through opener, as `mcplens app` does. The
// app's messages and the host's answers are frames of the server's log,
// the app named, so the wire pane shows them; a link the app asks for is
// asked about, a message for the conversation shown and refused
// (applink.go). The host stops at its lifetime.

// appReadBudget bounds each resources/read of the app's (its own resource
// first); the host itself runs for apphost.Lifetime.
const appReadBudget = 30 * time.Second

// appHostedMsg says the app of tool on server is hosted at url, or why not;
// opened says whether a browser was started.
type appHostedMsg struct {
	server, tool, url string
	opened            error
	err               error
	// notes is set on the first app hosted: its notes are to be awaited.
	notes chan string
	// done is closed when the host stops.
	done <-chan struct{}
}

// appGoneMsg says the host of the app keyed key (appKey) stopped.
type appGoneMsg struct{ key string }

// appKey names the app of tool on server among those hosted: an app is
// hosted once at a time, a again opening the page of the host running.
func appKey(server, tool string) string { return server + "\x00" + tool }

// hostApp hosts the app of the selected row's tool.
func (m *Model) hostApp() tea.Cmd {
	r, ok := m.selected()
	if !ok {
		return nil
	}
	_, t, ok := m.live.outcomeAt(r)
	if !ok || t.App == nil || t.App.ResourceURI == "" {
		m.say("this tool has no app (_meta.ui.resourceUri)")
		return nil
	}
	sb := m.can.offers
	if sb == nil {
		m.say("this view's servers cannot be read: no app to host")
		return nil
	}
	sv := &m.live.snap.Servers[r.server]
	if page, hosted := m.appHost[appKey(sv.Label(), t.Name)]; hosted {
		if page == "" {
			m.say("the app of " + model.Sanitize(t.Name) + " is being hosted")
			return nil
		}
		return func() tea.Msg {
			return appHostedMsg{server: sv.Label(), tool: t.Name, url: page, opened: opener.Open(page)}
		}
	}
	o := apphost.Options{
		Server: sv.Label(), Tool: t, Tools: sv.Tools, Resources: sv.Offers.Resources,
		Args: json.RawMessage(`{}`), Log: m.backend.FrameLog(sv.Label()), Version: model.NeutralHandshake().ClientInfo.Version,
	}
	if o.Log == nil {
		m.say("the server has no frame log: no app to host")
		return nil
	}
	backend := m.backend
	o.Read = func(ctx context.Context, uri string) (json.RawMessage, error) {
		ctx, cancel := context.WithTimeout(ctx, appReadBudget)
		defer cancel()
		res, err := sb.ReadResource(ctx, o.Server, uri)
		return res.Result, err
	}
	o.Call = func(ctx context.Context, wire string, args json.RawMessage) (json.RawMessage, error) {
		res, err := backend.Call(ctx, o.Server, wire, args)
		return res.Result, err
	}
	notes, first := m.appNotes()
	o.Mask = m.c.redact.Text
	o.Notice = func(text string) {
		select {
		case notes <- text:
		default: // too many at once: the frames keep them
		}
	}
	if q := m.questions; q != nil {
		o.OpenLink = func(ctx context.Context, url string) error { return q.askLink(ctx, o.Server, t.Name, url) }
	}
	msg := appHostedMsg{server: o.Server, tool: t.Name}
	if first {
		msg.notes = notes
	}
	if m.appHost == nil {
		m.appHost = map[string]string{}
	}
	m.appHost[appKey(o.Server, t.Name)] = ""
	return func() tea.Msg {
		// The host outlives this command: its lifetime ends it.
		h, err := apphost.Start(context.Background(), o)
		if err != nil {
			msg.err = err
			return msg
		}
		msg.url, msg.done = h.URL(), h.Done()
		msg.opened = opener.Open(h.URL())
		return msg
	}
}

// appHosted says where the app is, and whether a browser was opened; on
// the first app hosted, it starts waiting for apps' notes.
func (m *Model) appHosted(msg appHostedMsg) tea.Cmd {
	st := m.c.styles
	var wait tea.Cmd
	if msg.notes != nil {
		wait = waitAppNote(msg.notes)
	}
	key := appKey(msg.server, msg.tool)
	switch {
	case msg.err != nil:
		delete(m.appHost, key)
	case msg.done != nil:
		m.appHost[key] = msg.url
		done := msg.done
		wait = tea.Batch(wait, func() tea.Msg { <-done; return appGoneMsg{key} })
	}
	switch {
	case msg.err != nil:
		m.say(st.ErrorText.Render(model.Sanitize(m.c.redact.Text(fmt.Sprintf("app of %s not hosted: %v", msg.tool, msg.err)))))
	case msg.opened != nil:
		m.say(st.WarnText.Render(model.Sanitize(fmt.Sprintf("app of %s hosted at %s (open it yourself: %v); its frames are in the wire pane", msg.tool, msg.url, msg.opened))))
	default:
		m.say(st.OKText.Render(model.Sanitize(fmt.Sprintf("app of %s hosted at %s; its frames are in the wire pane", msg.tool, msg.url))))
	}
	return wait
}

// appLines are the detail pane's account of the tool's app: its resource
// and visibility, the CSP origins and the permissions its resource asks
// for (as listed), and what is malformed.
func (m *Model) appLines(label string, t model.Tool) []string {
	a := t.App
	if a == nil {
		return nil
	}
	s := m.c.styles
	san := model.Sanitize
	vis := "model and app (default)"
	if a.Visibility != nil {
		vis = a.VisibilityText()
	}
	lines := []string{s.Muted.Render("app: ") + san(a.ResourceURI) + s.Muted.Render(" · visibility ") + san(vis) +
		s.Muted.Render(" · "+m.c.keys.App.Help().Key+" hosts it")}
	if a.Problem != "" {
		lines = append(lines, s.WarnText.Render("! "+san(a.Problem)))
	}
	i, ok := m.live.snap.Index(label)
	if !ok {
		return lines
	}
	for _, r := range m.live.snap.Servers[i].Offers.Resources {
		if r.URI != a.ResourceURI {
			continue
		}
		res := model.AppResourceOf(r)
		csp := "none declared"
		var parts []string
		for _, d := range model.CSPDirectives {
			if origins := res.CSP[d]; len(origins) > 0 {
				parts = append(parts, d+" "+strings.Join(origins, " "))
			}
		}
		if len(parts) > 0 {
			csp = strings.Join(parts, "; ")
		}
		lines = append(lines, s.Muted.Render("app CSP: ")+san(csp))
		if len(res.Permissions) > 0 {
			lines = append(lines, s.Muted.Render("app asks for: ")+san(strings.Join(res.Permissions, ", "))+s.Muted.Render(" (mcplens's host grants none)"))
		}
		for _, p := range res.Problems {
			lines = append(lines, s.WarnText.Render("! "+san(p)))
		}
		return lines
	}
	return append(lines, s.WarnText.Render("! "+san(a.ResourceURI)+" is not in the server's resources/list"))
}
