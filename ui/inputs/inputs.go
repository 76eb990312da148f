package inputs

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// Needed returns the inputs a config declares that one of its servers
// uses and no answer has been given for: the VS Code ${input:ID} prompts.
func Needed(cfg *config.Config) []config.Input {
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

// KeyMap are the prompt's keys: Answer takes what was typed and goes to
// the next input, Skip leaves the rest unanswered.
type KeyMap struct {
	Answer, Skip key.Binding
}

// Styles are the prompt's styles: its title, what is muted, the input
// asked for, and the keys' line.
type Styles struct {
	Header, Muted, Section, Footer lipgloss.Style
}

// Config is what the prompt draws with, given by its owner.
type Config struct {
	Keys   KeyMap
	Styles Styles
}

// A Model asks for each input in turn, as VS Code does before it starts
// a server that uses one.
type Model struct {
	c             Config
	width, height int
	inputs        []config.Input
	at            int
	field         textinput.Model
	answers       map[string]string
	skipped       bool
}

// New returns the program that asks for inputs; run it, then read the
// answers with Answers.
func New(c Config, inputs []config.Input) *Model {
	m := &Model{
		c:       c,
		width:   80,
		height:  24,
		inputs:  inputs,
		answers: make(map[string]string, len(inputs)),
	}
	m.next()
	return m
}

// Answers returns what was typed, by input ID, and whether the user went
// through them all (Skip skips the rest: their servers stay unresolved).
func (m *Model) Answers() (map[string]string, bool) { return m.answers, !m.skipped }

// SetSize fits the prompt to a screen of width × height.
func (m *Model) SetSize(width, height int) { m.width, m.height = width, height }

func (m *Model) ShortHelp() []key.Binding { return []key.Binding{m.c.Keys.Answer, m.c.Keys.Skip} }

func (m *Model) FullHelp() [][]key.Binding { return [][]key.Binding{m.ShortHelp()} }

func (m *Model) next() {
	in := m.inputs[m.at]
	m.field = textinput.New()
	m.field.Prompt = "> "
	if in.Password {
		m.field.EchoMode = textinput.EchoPassword
	}
	m.field.Focus()
}

func (m *Model) Init() tea.Cmd { return textinput.Blink }

func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.SetSize(msg.Width, msg.Height)
		return m, nil
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, m.c.Keys.Skip):
			m.skipped = true
			return m, tea.Quit
		case key.Matches(msg, m.c.Keys.Answer):
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

func (m *Model) View() tea.View {
	if m.at >= len(m.inputs) || m.skipped {
		return tea.NewView("")
	}
	s := m.c.Styles
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
		s.Footer.Render(help.New().ShortHelpView(m.ShortHelp())),
	}
	return tea.NewView(strings.Join(lines, "\n"))
}
