package ui

import (
	"strings"
	"testing"

	"github.com/mcplens/mcplens/loader"
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
