package ui

import (
	"maps"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
)

// What a server answers reaches the screen sanitized: a text, a prompt
// message's role and URI.
func TestAnswerLinesSanitize(t *testing.T) {
	c := common{styles: DefaultStyles(true)}
	evil := "x\x1b]0;owned\x07\x1b[2J\u202ey"
	msg := offerShownMsg{title: "prompts/get " + evil, prompt: &loader.PromptResult{
		Description: evil,
		Messages:    []loader.PromptMessage{{Role: evil, Content: loader.Content{Type: "text", URI: evil, Text: evil + "\n" + evil}}},
	}}
	lines, _, _ := answerLines(c, msg)
	for _, l := range lines {
		// The styles add SGR sequences of their own; nothing else may
		// reach the terminal.
		if strings.Contains(l, "\x1b]") || strings.Contains(l, "\x1b[2J") || strings.Contains(l, "\x07") || strings.Contains(l, "\u202e") {
			t.Errorf("line %q holds a control sequence the server sent", l)
		}
	}
	if len(lines) < 4 {
		t.Errorf("lines %q: want the description, the message head and two text lines", lines)
	}
}

// A prompt's form sends a required argument, even empty, and an optional
// one only once typed in; an argument's name the schema must escape stays
// the argument's name.
func TestPromptFormValues(t *testing.T) {
	e := &env{c: common{width: 100, height: 30, styles: DefaultStyles(true), keys: DefaultKeyMap()}}
	p := model.Prompt{Name: "greet", NameOK: true, Arguments: []model.PromptArgument{
		{Name: "who", Description: "Who to greet.", Required: true},
		{Name: `odd "name"`},
	}}
	f := promptForm(e, p, true)
	for _, tt := range []struct {
		name string
		set  func()
		want map[string]string
	}{
		{"empty", func() {}, map[string]string{"who": ""}},
		{"who typed", func() { f.setField("ada") }, map[string]string{"who": "ada"}},
		{"both", func() { f.view.Update(tea.KeyPressMsg{Code: tea.KeyDown}); f.setField("x") }, map[string]string{"who": "ada", `odd "name"`: "x"}},
	} {
		tt.set()
		if got := f.values(); !maps.Equal(got, tt.want) {
			t.Errorf("%s: values() = %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := ansi.Strip(f.view.View()); !strings.Contains(got, "who*") || !strings.Contains(got, "Who to greet.") {
		t.Errorf("the form lacks the required mark or the description:\n%s", got)
	}
}
