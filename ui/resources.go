package ui

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The resources & prompts view (key 6): per server, the resources,
// resource templates and prompts it offers, each prompt with the slash
// command the active policy's client makes of it and the outcome
// (surface.Assessment.Prompts: computed there, read here). enter reads a
// resource, fills a template's variables or a prompt's arguments in a
// form (resourcesform.go), u subscribes to a resource.

// An offerKind is what one line of the view shows.
type offerKind int

const (
	offerServer offerKind = iota
	offerResource
	offerTemplate
	offerPrompt
)

// An offerLine is one line of the view: a server's heading, or one of its
// offers (i indexes its list).
type offerLine struct {
	kind      offerKind
	server, i int
}

// An offersView lists what every server offers beside its tools.
type offersView struct {
	list
	// panel is the form or the content open over the list, nil when none.
	panel *offerPanel
	// note says how the last subscription went.
	note string
}

func newOffersView(e *env) offersView { return offersView{list: list{e: e}} }

func (v *offersView) backend() (offersBackend, bool) {
	b := v.e.can.offers
	return b, b != nil
}

// lines are the view's lines, servers in declaration order.
func (v *offersView) lines() []offerLine {
	var out []offerLine
	for si := range v.e.live.snap.Servers {
		o := v.e.live.snap.Servers[si].Offers
		out = append(out, offerLine{kind: offerServer, server: si})
		for i := range o.Resources {
			out = append(out, offerLine{offerResource, si, i})
		}
		for i := range o.Templates {
			out = append(out, offerLine{offerTemplate, si, i})
		}
		for i := range o.Prompts {
			out = append(out, offerLine{offerPrompt, si, i})
		}
	}
	return out
}

func (v *offersView) refresh() tea.Cmd { return nil }

// selected is never a tool row: the detail pane and the tool editor have
// nothing to say about an offer.
func (v *offersView) selected() (ref, bool) { return ref{}, false }

// modal reports whether a form is open, or waits for the server: it takes
// every key, as the fields take text, but while the reader shows the
// form's answer.
func (v *offersView) modal() bool {
	return v.panel != nil && (v.panel.busy || v.panel.form != nil && !v.panel.reading())
}

// takes reports whether the view answers msg itself rather than the root:
// enter opens the line under the cursor, u (un)subscribes.
func (v *offersView) takes(msg tea.KeyPressMsg) bool {
	k := v.e.c.keys
	return v.panel == nil && key.Matches(msg, k.Open, k.Subscribe)
}

func (v *offersView) SetSize(width, height int) {
	v.list.SetSize(width, height)
	if v.panel != nil {
		v.panel.setWidth(width)
	}
}

func (v *offersView) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(subscribedMsg); ok {
		v.note = m.note
		return nil
	}
	if v.panel != nil {
		var cmd tea.Cmd
		v.panel, cmd = v.panel.update(v.e, msg)
		return cmd
	}
	lines := v.lines()
	if k, ok := msg.(tea.KeyPressMsg); ok && v.sc.cursor < len(lines) {
		at := lines[v.sc.cursor]
		switch {
		case key.Matches(k, v.e.c.keys.Open):
			return v.open(at)
		case key.Matches(k, v.e.c.keys.Subscribe) && at.kind == offerResource:
			return v.subscribe(at)
		}
	}
	v.moveKey(msg, len(lines))
	return nil
}

// open opens what enter opens on line at: a resource's content, a
// template's or a prompt's form.
func (v *offersView) open(at offerLine) tea.Cmd {
	b, ok := v.backend()
	sv := &v.e.live.snap.Servers[at.server]
	if !ok {
		r := answerReader(v.e, sv.Label(), offerShownMsg{title: "resources and prompts",
			err: errors.New("this session cannot read resources or get prompts")})
		return func() tea.Msg { return readMsg{r: r} }
	}
	p := &offerPanel{server: sv.Label(), backend: b, width: v.width}
	o := sv.Offers
	switch at.kind {
	case offerResource:
		p.read = o.Resources[at.i].URI
	case offerTemplate:
		p.form = templateForm(v.e, o.Templates[at.i], o.Completions)
	case offerPrompt:
		if !o.Prompts[at.i].NameOK {
			return nil
		}
		p.form = promptForm(v.e, o.Prompts[at.i], o.Completions)
	default:
		return nil
	}
	v.panel = p
	return p.start(v.e)
}

// subscribe toggles the subscription to the resource of line at.
func (v *offersView) subscribe(at offerLine) tea.Cmd {
	b, ok := v.backend()
	sv := &v.e.live.snap.Servers[at.server]
	if !ok || !sv.Offers.Subscribe {
		v.note = "the server does not offer resource subscriptions"
		return nil
	}
	label, uri := sv.Label(), sv.Offers.Resources[at.i].URI
	on := !b.Subscribed(label, uri)
	return func() tea.Msg {
		ctx, cancel := callContext()
		defer cancel()
		var err error
		if on {
			err = b.Subscribe(ctx, label, uri)
		} else {
			err = b.Unsubscribe(ctx, label, uri)
		}
		switch {
		case err != nil:
			return subscribedMsg{note: err.Error()}
		case on:
			return subscribedMsg{note: "subscribed to " + uri + " on " + label}
		}
		return subscribedMsg{note: "unsubscribed from " + uri + " on " + label}
	}
}

// subscribedMsg reports a subscription changed, or why it did not.
type subscribedMsg struct{ note string }

func (v *offersView) View() string {
	if v.panel != nil {
		return v.panel.view(v.e.c, v.width, v.height)
	}
	e := v.e
	lines := v.lines()
	nameW := max(16, min(40, v.width*30/100))
	cmdW := max(16, min(44, v.width*32/100))
	last := "DESCRIPTION"
	if v.note != "" {
		last = e.c.text(v.note) // in place of the column's name: the line is full
	}
	head := "  " + cell("OFFER", nameW) + " " + cell("SLASH COMMAND / TYPE", cmdW) + " " + last
	b, _ := v.backend()
	return v.draw(head, len(lines), func(i int) string {
		return v.line(e, b, lines[i], nameW, cmdW)
	})
}

// line draws one line of the view.
func (v *offersView) line(e *env, b offersBackend, at offerLine, nameW, cmdW int) string {
	sv := &e.live.snap.Servers[at.server]
	o := sv.Offers
	switch at.kind {
	case offerServer:
		head := e.c.quote(sv.Label()) + "  " + count(len(o.Resources), "resource") + " · " +
			count(len(o.Templates), "template") + " · " + count(len(o.Prompts), "prompt")
		if !sv.Listed {
			head = e.c.quote(sv.Label()) + "  " + string(e.live.a.Servers[at.server].Status)
		}
		for _, n := range o.Notes {
			head += "  " + e.c.styles.WarnText.Render("⚠ "+e.c.text(n))
		}
		return e.c.styles.Section.Render(head)
	case offerResource:
		r := o.Resources[at.i]
		kind := dash(r.MIMEType)
		if b != nil {
			kind += updatesNote(b, sv.Label(), r.URI)
		}
		return "  " + cell(e.c.quote(offerName(r.Title, r.Name, r.URI)), nameW) + " " + cell(e.c.quote(kind), cmdW) + " " + e.c.quote(firstLine(dash(r.Description), 200))
	case offerTemplate:
		t := o.Templates[at.i]
		return "  " + cell(e.c.quote(offerName(t.Title, t.Name, t.URITemplate)), nameW) + " " + cell("template", cmdW) + " " + e.c.quote(firstLine(dash(t.Description), 200))
	}
	pr := o.Prompts[at.i]
	name := pr.Name
	if !pr.NameOK {
		name = "(" + pr.NameProblem + ")"
	}
	command, style := "-", e.c.styles.painters().muted
	if res := e.live.a.PromptResult(at.server); res != nil && at.i < len(res.Outcomes) {
		oc := res.Outcomes[at.i]
		if oc.Name != "" {
			command = "/" + oc.Name
		}
		command += "  " + oc.Kind.String()
		style = e.c.outcomeStyle(oc.Kind)
	}
	desc := pr.Description
	if n := len(pr.Arguments); n > 0 {
		desc = fmt.Sprintf("(%d args) %s", n, desc)
	}
	return "  " + cell(e.c.quote(name), nameW) + " " + style.Render(cell(e.c.quote(command), cmdW)) + " " + e.c.quote(firstLine(dash(desc), 200))
}

func (v *offersView) ShortHelp() []key.Binding {
	if v.panel != nil {
		return v.panel.help(v.e.c.keys)
	}
	k := v.e.c.keys
	return []key.Binding{k.Up, k.Down, k.Open, k.Subscribe, k.NextView, k.Policy, k.Client}
}

func (v *offersView) FullHelp() [][]key.Binding {
	k := v.e.c.keys
	return append(v.list.FullHelp(), []key.Binding{k.Open, k.Subscribe, k.Complete, k.FieldNext, k.FieldPrev, k.Send, k.Cancel})
}

// dash is s, or "-" when it is empty.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// count is "1 prompt", "2 prompts".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// offerName is what a resource or template is listed as: its title, else
// its name, else its URI (the detail pane gives the URI whole).
func offerName(title, name, uri string) string {
	for _, s := range []string{title, name} {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return uri
}
