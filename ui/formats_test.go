package ui_test

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// typeText presses each character of text.
func typeText(m tea.Model, text string) tea.Model {
	for _, r := range text {
		m = press(m, string(r))
	}
	return m
}

// TestElicitationFormats: server-everything's form with a date that is
// not one, then an email that is not one, is refused at the first ctrl+s
// with the field named; fixed, it is accepted with what was typed.
func TestElicitationFormats(t *testing.T) {
	m, sess, q := askerSession(t)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	done := callAskerWith(t, sess, "survey", nil)
	m, _ = m.Update(question(t, q))
	m = typeText(m, "Ada")
	m = press(m, "tab")
	if !strings.Contains(focusedLine(screen(m)), "Birthdate") {
		t.Fatalf("the second field is not the birthdate:\n%s", screen(m))
	}
	m = typeText(m, "not-a-date")
	m = press(m, "ctrl+s")
	if got := screen(m); !strings.Contains(got, "/birthdate") || !strings.Contains(got, "date") {
		t.Errorf("not-a-date was not refused with its field named:\n%s", got)
	}
	m = press(m, slices.Repeat([]string{"backspace"}, 10)...)
	m = typeText(m, "1815-12-10")
	for !strings.Contains(focusedLine(screen(m)), "Email") {
		m = press(m, "tab")
	}
	m = typeText(m, "bad-email")
	m = press(m, "ctrl+s")
	if got := screen(m); !strings.Contains(got, "/email") || !strings.Contains(got, "email") || strings.Contains(got, "/birthdate") {
		t.Errorf("bad-email was not refused with its field named:\n%s", got)
	}
	m = press(m, slices.Repeat([]string{"backspace"}, 9)...)
	m = typeText(m, "ada@example.com")
	press(m, "ctrl+s")
	got := result(t, done)
	for _, want := range []string{`\"birthdate\":\"1815-12-10\"`, `\"email\":\"ada@example.com\"`, `\"action\":\"accept\"`} {
		if !strings.Contains(got, want) {
			t.Errorf("survey answered %s, want %s in it", got, want)
		}
	}
}

// TestInvokeFormats: the argument editor refuses a date that is not one
// before sending, naming the argument, as argcheck does for every call.
func TestInvokeFormats(t *testing.T) {
	m, _, _ := askerSession(t)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = press(m, "/", "f", "i", "l", "l", "enter", "i", "tab")
	m = typeText(m, "Ada")
	for !strings.Contains(focusedLine(screen(m)), "Birthdate") {
		m = press(m, "down")
	}
	m = typeText(m, "not-a-date")
	m = press(m, "ctrl+s")
	if got := screen(m); !strings.Contains(got, "/birthdate") || !strings.Contains(got, "invoke fill_in") {
		t.Errorf("the editor sent a date that is not one, or did not name it:\n%s", got)
	}
}
