package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
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
	fields  []formField
	focused int
	url     string
	// conversation is a sampling request's system prompt, messages and
	// model preferences, as lines.
	conversation []string
	reply        textinput.Model
	// problem says why the form was not accepted.
	problem string
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
		a.reply = textinput.New()
		a.reply.Prompt = "reply: "
		a.reply.SetWidth(60)
	case p.Mode == "url":
		a.kind, a.url = askURL, p.URL
	default:
		a.fields = formFields(p.RequestedSchema)
	}
	return a
}

// focus puts the cursor in the field focused, if it takes text.
func (a *asking) focus() tea.Cmd {
	if a.kind == askSampling {
		return a.reply.Focus()
	}
	var cmd tea.Cmd
	for i := range a.fields {
		f := &a.fields[i]
		if i == a.focused && (f.kind != fieldBool && f.kind != fieldEnum) {
			cmd = f.input.Focus()
		} else {
			f.input.Blur()
		}
	}
	return cmd
}

func (a *asking) ShortHelp() []key.Binding {
	k := a.e.c.keys
	switch a.kind {
	case askURL:
		return []key.Binding{k.OpenURL, k.No, k.Dismiss}
	case askSampling:
		return []key.Binding{k.SendReply, k.Reject}
	}
	return []key.Binding{k.NextField, k.Toggle, k.Choose, k.Accept, k.Decline, k.Dismiss}
}

// Update answers keys and edits the field focused; it returns the reply
// once the question is answered.
func (a *asking) Update(msg tea.Msg) (tea.Cmd, *loader.Reply) {
	k := a.e.c.keys
	if press, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case a.kind == askURL && key.Matches(press, k.OpenURL):
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
		case a.kind == askForm && len(a.fields) > 0:
			if cmd, done := a.formKey(press); done {
				return cmd, nil
			}
		}
	}
	var cmd tea.Cmd
	switch {
	case a.kind == askSampling:
		a.reply, cmd = a.reply.Update(msg)
	case a.kind == askForm && a.focused < len(a.fields):
		f := &a.fields[a.focused]
		f.input, cmd = f.input.Update(msg)
	}
	return cmd, nil
}

// formKey moves between the fields and toggles and chooses, reporting
// whether the key was one of those.
func (a *asking) formKey(press tea.KeyPressMsg) (tea.Cmd, bool) {
	k := a.e.c.keys
	f := &a.fields[a.focused]
	n := len(a.fields)
	switch {
	case key.Matches(press, k.NextField):
		a.focused = (a.focused + 1) % n
	case key.Matches(press, k.PrevField):
		a.focused = (a.focused + n - 1) % n
	case f.kind == fieldBool && key.Matches(press, k.Toggle):
		f.on = !f.on
	case f.kind == fieldEnum && len(f.options) > 0 && key.Matches(press, k.Choose):
		step := 1
		if press.String() == "left" {
			step = len(f.options) - 1
		}
		f.choice = (f.choice + step) % len(f.options)
	default:
		return nil, false
	}
	return a.focus(), true
}

// accept is the form's content, or the form again with what is wrong.
func (a *asking) accept() (tea.Cmd, *loader.Reply) {
	content := map[string]any{}
	for i := range a.fields {
		v, ok, err := a.fields[i].value()
		if err != nil {
			a.problem = err.Error()
			a.focused = i
			return a.focus(), nil
		}
		if ok {
			content[a.fields[i].name] = v
		}
	}
	return nil, &loader.Reply{Action: mcp.ElicitationResponseActionAccept, Content: content}
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
		lines = append(lines, s.In.Render(san(a.url)), "", s.WarnText.Render("open it in a browser?"))
	case askSampling:
		lines = append(lines, a.conversation...)
		lines = append(lines, "", a.reply.View())
	default:
		width := 0
		for _, f := range a.fields {
			width = max(width, len(san(f.title))+1)
		}
		for i, f := range a.fields {
			mark := "  "
			if i == a.focused {
				mark = "▸ "
			}
			title := san(f.title)
			if f.required {
				title += "*"
			}
			lines = append(lines, mark+s.PolicyName.Render(cell(title, width))+"  "+f.shown())
			if f.description != "" {
				lines = append(lines, "  "+s.Muted.Render(san(f.description)))
			}
		}
		if len(a.fields) == 0 {
			lines = append(lines, s.Muted.Render("(no fields)"))
		}
		lines = append(lines, "", s.Muted.Render("* required"))
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
