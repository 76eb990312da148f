package inputs

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader/config"
)

func testConfig() Config {
	return Config{Keys: KeyMap{
		Answer: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "answer")),
		Skip:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "skip")),
	}}
}

// A VS Code config's ${input:ID} is asked for when a server uses it, and
// the answer resolves the variable when the config is read again.
func TestInputsAskedAndAnswered(t *testing.T) {
	const file = `{
  "inputs": [
    {"type": "promptString", "id": "api-key", "description": "Alpha API key", "password": true},
    {"type": "promptString", "id": "unused", "description": "Nobody uses this"}
  ],
  "servers": {
    "alpha": {"command": "srv", "env": {"API_KEY": "${input:api-key}"}}
  }
}`
	cfg, err := config.Parse(".vscode/mcp.json", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	needed := Needed(cfg)
	if len(needed) != 1 || needed[0].ID != "api-key" {
		t.Fatalf("NeededInputs = %+v, want only api-key", needed)
	}
	var m tea.Model = New(testConfig(), needed)
	if v := m.View().Content; !strings.Contains(v, "Alpha API key") {
		t.Errorf("prompt does not say what it asks for:\n%s", v)
	}
	for _, r := range "s3cret" {
		m, _ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if v := m.View().Content; strings.Contains(v, "s3cret") {
		t.Errorf("a password input is echoed:\n%s", v)
	}
	m, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter on the last input does not end the prompt")
	}
	_ = m.View() // drawn once more after the last answer, as a program does
	answers, complete := m.(*Model).Answers()
	if !complete || answers["api-key"] != "s3cret" {
		t.Fatalf("Answers = %v, %v; want api-key answered", answers, complete)
	}
	cfg, err = config.ParseWith(".vscode/mcp.json", []byte(file), config.Options{Inputs: answers})
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Servers[0]
	if len(s.Env) != 1 || s.Env[0].Value != "s3cret" || len(s.Findings) != 0 {
		t.Errorf("with the answer, server = env %+v findings %q; want API_KEY resolved and no finding", s.Env, s.Findings)
	}
}

// An input's ID and description reach the terminal sanitized; esc skips
// the rest, and Answers says the prompt was not gone through.
func TestInputsSanitizedAndSkipped(t *testing.T) {
	m := New(testConfig(), []config.Input{{ID: "a\x1b]52;c;ZXZpbA==\x07", Description: "key\x1b[2J\r"}, {ID: "b"}})
	if v := m.View().Content; strings.ContainsAny(v, "\x07\r") || strings.Contains(v, "\x1b[2J") || strings.Contains(v, "\x1b]52") {
		t.Errorf("the prompt shows config bytes unsanitized:\n%q", v)
	}
	if _, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEscape}); cmd == nil {
		t.Fatal("esc does not end the prompt")
	}
	if answers, complete := m.Answers(); complete || len(answers) != 0 {
		t.Errorf("after esc: answers %v, complete %v; want none, not complete", answers, complete)
	}
}
