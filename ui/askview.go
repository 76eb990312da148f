package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/argcheck"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/opener"
	"github.com/mcplens/mcplens/ui/kit"
)

// An askKind is what a question asks for.
type askKind int

const (
	askForm     askKind = iota // an elicitation's form
	askURL                     // an elicitation to open a URL
	askSampling                // a sampling request's reply
)

// asking is the question a server asked, on screen until it is answered.
type asking struct {
	e    *env
	msg  askMsg
	kind askKind
	// text is what the server says, as sent: an elicitation's message, a
	// sampling request's system prompt, messages and model preferences,
	// one block each; shown is its first lines (askpreview.go), reader
	// shows it whole while open.
	text   []string
	shown  preview
	reader *readerView
	form   *formView
	url    string
	// refused says why url is not opened (opener.Check), nil when it may be.
	refused error
	reply   textarea.Model
	// problem says why the form was not accepted.
	problem string
	// schema checks an accepted form's content; armed is set while its
	// objection is shown: ctrl+s again accepts anyway.
	schema *argcheck.Schema
	armed  bool
	// clipped is set when the box, for want of lines, shows fewer lines
	// of the text than the preview has.
	clipped bool
}

// readable reports whether the box leaves some of the text out, for
// ctrl+o to read it whole.
func (a *asking) readable() bool { return a.previewFor().more != "" || a.clipped }

func newAsking(e *env, msg askMsg) *asking {
	h := msg.heard
	a := &asking{e: e, msg: msg, kind: h.kind, text: h.text, url: h.url, schema: h.schema}
	switch a.kind {
	case askSampling:
		a.reply = textarea.New()
		a.reply.Placeholder = "the model's reply"
		a.reply.ShowLineNumbers = false
		a.reply.SetWidth(68)
		a.reply.SetHeight(4)
	case askURL:
		// The URL is part of the text: the form shows its start, ctrl+o
		// reads it whole, to copy when it is refused.
		a.text = append(a.text, "URL: "+model.Sanitize(a.url)) // one line, whatever it holds
		_, a.refused = opener.Check(a.url)
	case askForm:
		k := e.c.keys
		a.form = newFormView(e, h.form, k.NextField, k.PrevField)
	}
	return a
}

// focus puts the cursor in the field focused, if it takes text.
func (a *asking) focus() tea.Cmd {
	switch a.kind {
	case askSampling:
		return a.reply.Focus()
	case askForm:
		return a.form.Focus()
	}
	return nil
}

func (a *asking) ShortHelp() []key.Binding {
	k := a.e.c.keys
	if a.reader != nil {
		return a.reader.ShortHelp()
	}
	var keys []key.Binding
	switch a.kind {
	case askURL:
		keys = []key.Binding{k.OpenURL, k.No, k.Dismiss}
		if a.refused != nil {
			keys = keys[1:]
		}
	case askSampling:
		keys = []key.Binding{k.SendReply, k.Reject}
	default:
		// What answers comes first: a narrow screen cuts the keys' line.
		keys = append(append([]key.Binding{k.Accept, k.Decline}, a.form.ShortHelp()...), k.Dismiss)
	}
	if a.readable() {
		keys = append(keys, k.ReadAll)
	}
	return keys
}

// Update answers keys and edits the field focused; it returns the reply
// once the question is answered.
func (a *asking) Update(msg tea.Msg) (tea.Cmd, *loader.Reply) {
	k := a.e.c.keys
	if a.reader != nil {
		cmd := a.reader.Update(msg)
		if a.reader.Closed() {
			a.reader = nil
		}
		return cmd, nil
	}
	if press, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(press, k.ReadAll) && a.readable():
			a.readAll()
			return nil, nil
		case a.kind == askURL && a.refused == nil && key.Matches(press, k.OpenURL):
			return a.e.questions.openURL(a.url), &loader.Reply{Action: mcp.ElicitationResponseActionAccept}
		case a.kind == askSampling && key.Matches(press, k.SendReply):
			return nil, &loader.Reply{Action: mcp.ElicitationResponseActionAccept, Text: a.reply.Value()}
		case a.kind == askSampling && key.Matches(press, k.Reject):
			return nil, &loader.Reply{Action: mcp.ElicitationResponseActionDecline}
		case a.kind == askForm && key.Matches(press, k.Accept):
			return a.accept()
		case a.kind == askForm && key.Matches(press, k.Decline), a.kind == askURL && key.Matches(press, k.No):
			return nil, &loader.Reply{Action: mcp.ElicitationResponseActionDecline}
		case key.Matches(press, k.Dismiss):
			return nil, &loader.Reply{Action: mcp.ElicitationResponseActionCancel}
		}
	}
	var cmd tea.Cmd
	switch a.kind {
	case askSampling:
		a.reply, cmd = a.reply.Update(msg)
	case askForm:
		var changed bool
		cmd, changed = a.form.Update(msg)
		a.armed = a.armed && !changed
	}
	return cmd, nil
}

// accept is the form's content, or the form again with what is wrong.
func (a *asking) accept() (tea.Cmd, *loader.Reply) {
	c, err := content(a.form.Form())
	if err != nil {
		a.problem = err.Error()
		return nil, nil
	}
	if v, err := a.form.Form().Value(); err == nil && !a.armed {
		if ps, _ := a.schema.Check(v); len(ps) > 0 {
			a.problem = ps[0].String() + " (ctrl+s again accepts anyway)"
			a.armed = true
			return nil, nil
		}
	}
	return nil, &loader.Reply{Action: mcp.ElicitationResponseActionAccept, Content: c}
}

// View draws the question in a box that fits the screen above the keys:
// its first lines (as many as leave the form three lines), and what
// answers it, the form scrolled to keep its focused field in view.
func (a *asking) View() string {
	c := a.e.c
	s := c.styles
	height := c.height - 1 // the keys' line is under the box
	inner, room := kit.BoxInner(c.width), kit.BoxRoom(height)
	what := map[askKind]string{askForm: "asks you to fill in a form", askURL: "asks you to open a URL", askSampling: "asks for a model's reply"}[a.kind]
	head := []string{s.Header.Render(c.quote(cut(c, a.msg.question.Server, 200))) + s.Muted.Render(" "+what)}
	var body, foot []string
	switch a.kind {
	case askURL:
		if a.refused != nil {
			foot = append(foot, s.ErrorText.Render(c.text(a.refused.Error())), s.Muted.Render("copy it if you trust it; n declines"))
		} else {
			foot = append(foot, s.WarnText.Render("open it in a browser?"))
		}
	case askSampling:
		a.reply.SetWidth(min(68, inner))
		a.reply.SetHeight(max(1, min(4, room-8)))
		body = append(body, s.Muted.Render("reply (enter starts a new line):"))
		body = append(body, strings.Split(a.reply.View(), "\n")...)
	default:
		foot = append(foot, "", s.Muted.Render(fmt.Sprintf("* required · field %d of %d", a.form.Focused()+1, a.form.Len())))
	}
	if a.problem != "" {
		foot = append(foot, s.ErrorText.Render(truncate(c.quote(cut(c, a.problem, 4*inner)), inner, "…")))
	}
	p := a.previewFor()
	if len(a.text) > 0 {
		// The text gives way to the form: it keeps at least a line, and
		// says how to read the rest.
		n := min(len(p.lines), max(1, room-len(head)-len(foot)-len(body)-6))
		head = append(head, "")
		for _, l := range p.lines[:n] {
			head = append(head, s.Text.Render(l))
		}
		a.clipped = n < len(p.lines)
		if more := p.more; more != "" || a.clipped {
			if more == "" {
				more = "…"
			}
			head = append(head, s.Muted.Render(more+" · "+c.keys.ReadAll.Help().Key+" reads it in full"))
		}
	}
	head = append(head, "")
	if a.kind == askForm {
		a.form.SetSize(inner, max(1, room-len(head)-len(foot)))
		body = strings.Split(a.form.View(), "\n")
	}
	return kit.Box(s.box(), head, body, foot, len(body)-1, c.width, height)
}

// overlay draws the question over the screen, with help, the keys that
// answer it; or the reader, while the question is read in full.
func (a *asking) overlay(help string) string {
	c := a.e.c
	if a.reader != nil {
		a.reader.SetSize(c.width, max(3, c.height-1))
		return joinLeft(a.reader.View(), help)
	}
	return lipgloss.Place(c.width, c.height, lipgloss.Center, lipgloss.Center, joinLeft(a.View(), help), lipgloss.WithWhitespaceChars(" "))
}
