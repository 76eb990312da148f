package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/ui/inputs"
)

// NewInputs returns the program that asks for a config's inputs
// (ui/inputs), with the interface's keys and styles; run it, then read
// the answers with Answers.
func NewInputs(needed []config.Input) tea.Model {
	k, s := DefaultKeyMap(), DefaultStyles(true)
	return inputs.New(inputs.Config{
		Keys:   inputs.KeyMap{Answer: k.Answer, Skip: k.Skip},
		Styles: inputs.Styles{Header: s.Header, Muted: s.Muted, Section: s.Section, Footer: s.Footer},
	}, needed)
}

// Answers returns what was typed in the program NewInputs returned, by
// input ID, and whether the user went through them all (esc skips the
// rest: their servers stay unresolved).
func Answers(m tea.Model) (map[string]string, bool) {
	im, ok := m.(*inputs.Model)
	if !ok {
		return nil, false
	}
	return im.Answers()
}
