package ui

import (
	"encoding/json"
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
	// message is what the server says the question is for.
	message string
	form    *formView
	url     string
	// refused says why url is not opened (opener.Check), nil when it may be.
	refused error
	// conversation is a sampling request's system prompt, messages and
	// model preferences, as lines.
	conversation []string
	reply        textarea.Model
	// problem says why the form was not accepted.
	problem string
	// schema checks an accepted form's content; armed is set while its
	// objection is shown: ctrl+s again accepts anyway.
	schema *argcheck.Schema
	armed  bool
}

func newAsking(e *env, msg askMsg) *asking {
	a := &asking{e: e, msg: msg}
	var p struct {
		Mode            string          `json:"mode"`
		Message         string          `json:"message"`
		URL             string          `json:"url"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	_ = json.Unmarshal(msg.question.Params, &p) // what is missing is shown empty
	a.message = p.Message
	switch {
	case msg.question.Method == model.MethodCreateMessage:
		a.kind = askSampling
		a.conversation = conversation(msg.question.Params)
		a.reply = textarea.New()
		a.reply.Placeholder = "the model's reply"
		a.reply.ShowLineNumbers = false
		a.reply.SetWidth(68)
		a.reply.SetHeight(4)
	case p.Mode == "url":
		a.kind, a.url = askURL, p.URL
		_, a.refused = opener.Check(p.URL)
	default:
		k := e.c.keys
		a.form = newFormView(e, elicitationForm(p.RequestedSchema), k.NextField, k.PrevField)
		a.schema, _ = argcheck.Compile(p.RequestedSchema) // a schema that does not compile checks nothing
	}
	return a
}

// focus puts the cursor in the field focused, if it takes text.
func (a *asking) focus() tea.Cmd {
	switch a.kind {
	case askSampling:
		return a.reply.Focus()
	case askForm:
		return a.form.focus()
	}
	return nil
}

func (a *asking) ShortHelp() []key.Binding {
	k := a.e.c.keys
	switch a.kind {
	case askURL:
		if a.refused != nil {
			return []key.Binding{k.No, k.Dismiss}
		}
		return []key.Binding{k.OpenURL, k.No, k.Dismiss}
	case askSampling:
		return []key.Binding{k.SendReply, k.Reject}
	}
	return append(a.form.ShortHelp(), k.Accept, k.Decline, k.Dismiss)
}

// Update answers keys and edits the field focused; it returns the reply
// once the question is answered.
func (a *asking) Update(msg tea.Msg) (tea.Cmd, *loader.Reply) {
	k := a.e.c.keys
	if press, ok := msg.(tea.KeyPressMsg); ok {
		switch {
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
	c, err := content(a.form.form)
	if err != nil {
		a.problem = err.Error()
		return nil, nil
	}
	if v, err := a.form.form.Value(); err == nil && !a.armed {
		if ps, _ := a.schema.Check(v); len(ps) > 0 {
			a.problem = ps[0].String() + " (ctrl+s again accepts anyway)"
			a.armed = true
			return nil, nil
		}
	}
	return nil, &loader.Reply{Action: mcp.ElicitationResponseActionAccept, Content: c}
}

// View draws the question.
func (a *asking) View() string {
	s := a.e.c.styles
	san := model.Sanitize
	what := map[askKind]string{askForm: "asks you to fill in a form", askURL: "asks you to open a URL", askSampling: "asks for a model's reply"}[a.kind]
	lines := []string{s.Header.Render(san(a.msg.question.Server)) + s.Muted.Render(" "+what)}
	if a.message != "" {
		lines = append(lines, "", s.Text.Render(san(a.message)))
	}
	lines = append(lines, "")
	switch a.kind {
	case askURL:
		lines = append(lines, s.In.Render(san(a.url)), "")
		if a.refused != nil {
			lines = append(lines, s.ErrorText.Render(san(a.refused.Error())), s.Muted.Render("copy it if you trust it; n declines"))
		} else {
			lines = append(lines, s.WarnText.Render("open it in a browser?"))
		}
	case askSampling:
		lines = append(lines, a.conversation...)
		lines = append(lines, "", s.Muted.Render("reply (enter starts a new line):"), a.reply.View())
	default:
		lines = append(lines, a.form.View(), "", s.Muted.Render("* required"))
	}
	if a.problem != "" {
		lines = append(lines, s.ErrorText.Render(san(a.problem)))
	}
	return s.Overlay.Render(strings.Join(lines, "\n"))
}

// overlay draws the question over the screen, with help, the keys that
// answer it.
func (a *asking) overlay(help string) string {
	c := a.e.c
	return lipgloss.Place(c.width, c.height, lipgloss.Center, lipgloss.Center, joinLeft(a.View(), help), lipgloss.WithWhitespaceChars(" "))
}

// conversation is what a sampling request shows: the system prompt, each
// message, and the model preferences.
func conversation(params json.RawMessage) []string {
	var p struct {
		SystemPrompt string `json:"systemPrompt"`
		MaxTokens    int    `json:"maxTokens"`
		Messages     []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		ModelPreferences *struct {
			Hints []struct {
				Name string `json:"name"`
			} `json:"hints"`
			Cost         *float64 `json:"costPriority"`
			Speed        *float64 `json:"speedPriority"`
			Intelligence *float64 `json:"intelligencePriority"`
		} `json:"modelPreferences"`
	}
	_ = json.Unmarshal(params, &p)
	san := model.Sanitize
	var lines []string
	if p.SystemPrompt != "" {
		lines = append(lines, "system: "+san(p.SystemPrompt))
	}
	for _, m := range p.Messages {
		lines = append(lines, san(m.Role)+": "+san(contentText(m.Content)))
	}
	if mp := p.ModelPreferences; mp != nil {
		var prefs []string
		for _, h := range mp.Hints {
			prefs = append(prefs, "hint "+san(h.Name))
		}
		for _, pr := range []struct {
			name string
			v    *float64
		}{{"cost", mp.Cost}, {"speed", mp.Speed}, {"intelligence", mp.Intelligence}} {
			if pr.v != nil {
				prefs = append(prefs, fmt.Sprintf("%s %g", pr.name, *pr.v))
			}
		}
		lines = append(lines, "model preferences: "+strings.Join(prefs, ", "))
	}
	if p.MaxTokens > 0 {
		lines = append(lines, fmt.Sprintf("max tokens: %d", p.MaxTokens))
	}
	return lines
}

// contentText is a message's content as text: its text, or its type for
// content that is not text.
func contentText(raw json.RawMessage) string {
	var one struct {
		Type, Text string
	}
	if json.Unmarshal(raw, &one) == nil {
		if one.Type == "text" {
			return one.Text
		}
		return "[" + one.Type + "]"
	}
	var many []json.RawMessage
	_ = json.Unmarshal(raw, &many)
	var parts []string
	for _, c := range many {
		parts = append(parts, contentText(c))
	}
	return strings.Join(parts, " ")
}
