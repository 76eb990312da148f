package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// NeededInputs returns the inputs a config declares that one of its servers
// uses and no answer has been given for: the VS Code ${input:ID} prompts.
func NeededInputs(cfg *config.Config) []config.Input {
	var needed []config.Input
	for _, in := range cfg.Inputs {
		ref := "${input:" + in.ID + "}"
		for _, s := range cfg.Servers {
			if used(s, ref) {
				needed = append(needed, in)
				break
			}
		}
	}
	return needed
}

func used(s config.ServerSpec, ref string) bool {
	for _, f := range s.Findings {
		if strings.Contains(f, ref) {
			return true
		}
	}
	return false
}

// An inputsModel asks for each input in turn, as VS Code does before it
// starts a server that uses one.
type inputsModel struct {
	c       common
	inputs  []config.Input
	at      int
	field   textinput.Model
	answers map[string]string
	skipped bool
}

// NewInputs returns the program that asks for inputs; run it, then read
// the answers with Answers.
func NewInputs(inputs []config.Input) tea.Model {
	m := &inputsModel{
		c:       common{width: 80, height: 24, styles: DefaultStyles(true), keys: DefaultKeyMap()},
		inputs:  inputs,
		answers: make(map[string]string, len(inputs)),
	}
	m.next()
	return m
}

// Answers returns what was typed, by input ID, and whether the user went
// through them all (esc skips the rest: their servers stay unresolved).
func Answers(m tea.Model) (map[string]string, bool) {
	im, ok := m.(*inputsModel)
	if !ok {
		return nil, false
	}
	return im.answers, !im.skipped
}

func (m *inputsModel) next() {
	in := m.inputs[m.at]
	m.field = textinput.New()
	m.field.Prompt = "> "
	if in.Password {
		m.field.EchoMode = textinput.EchoPassword
	}
	m.field.Focus()
}

func (m *inputsModel) Init() tea.Cmd { return textinput.Blink }

func (m *inputsModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.width, m.c.height = msg.Width, msg.Height
		return m, nil
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, m.c.keys.Skip):
			m.skipped = true
			return m, tea.Quit
		case key.Matches(msg, m.c.keys.Answer):
			m.answers[m.inputs[m.at].ID] = m.field.Value()
			if m.at++; m.at == len(m.inputs) {
				return m, tea.Quit
			}
			m.next()
			return m, nil
		}
	}
	var cmd tea.Cmd
	m.field, cmd = m.field.Update(msg)
	return m, cmd
}

func (m *inputsModel) View() tea.View {
	if m.at >= len(m.inputs) || m.skipped {
		return tea.NewView("")
	}
	s := m.c.styles
	in := m.inputs[m.at]
	what := in.Description
	if what == "" {
		what = in.ID
	}
	lines := []string{
		s.Header.Render("mcplens") + s.Muted.Render(" · the config asks for an input before its servers start"),
		"",
		s.Section.Render(model.Sanitize(what)) + s.Muted.Render("  (${input:"+model.Sanitize(in.ID)+"}, "+strconv.Itoa(m.at+1)+" of "+strconv.Itoa(len(m.inputs))+")"),
		m.field.View(),
		"",
		s.Footer.Render(help.New().ShortHelpView([]key.Binding{m.c.keys.Answer, m.c.keys.Skip})),
	}
	return tea.NewView(strings.Join(lines, "\n"))
}
