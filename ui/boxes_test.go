package ui_test

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/ui"
)

// surveySchema is server-everything's trigger-elicitation-request form:
// more fields than a small terminal has lines, with formats.
const surveySchema = `{"type":"object","properties":{
"name":{"type":"string","title":"Full Name","description":"Your full, legal name"},
"check":{"type":"boolean","title":"Agree to terms","description":"A boolean check"},
"color":{"type":"string","title":"Favorite Color","description":"Favorite color (open text)","default":"blue"},
"email":{"type":"string","title":"Email Address","format":"email","description":"Your email address (will be verified, and never shared with anyone else)"},
"homepage":{"type":"string","format":"uri","title":"Homepage","description":"Your personal website or homepage URL"},
"birthdate":{"type":"string","format":"date","title":"Birthdate","description":"Your date of birth"},
"integer":{"type":"integer","title":"Favorite Integer","description":"Your favorite integer (do not give us your phone number, pin, or other sensitive info)","minimum":1,"maximum":100,"default":42},
"number":{"type":"number","title":"Favorite Number","description":"Your favorite number","minimum":0,"maximum":1000,"default":3.14},
"untitledSingleSelectEnum":{"type":"string","title":"Untitled Single Select Enum","description":"Choose your favorite friend","enum":["Monica","Rachel","Joey","Chandler","Ross","Phoebe"],"default":"Monica"},
"untitledMultipleSelectEnum":{"type":"array","title":"Untitled Multiple Select Enum","description":"Choose your favorite instruments","minItems":1,"maxItems":3,"items":{"type":"string","enum":["Guitar","Piano","Violin","Drums","Bass"]},"default":["Guitar"]},
"titledSingleSelectEnum":{"type":"string","title":"Titled Single Select Enum","description":"Choose your favorite hero","oneOf":[{"const":"hero-1","title":"Superman"},{"const":"hero-2","title":"Green Lantern"},{"const":"hero-3","title":"Wonder Woman"}],"default":"hero-1"},
"titledMultipleSelectEnum":{"type":"array","title":"Titled Multiple Select Enum","description":"Choose your favorite types of fish","minItems":1,"maxItems":3,"items":{"anyOf":[{"const":"fish-1","title":"Tuna"},{"const":"fish-2","title":"Salmon"},{"const":"fish-3","title":"Trout"}]},"default":["fish-1"]},
"legacyTitledEnum":{"type":"string","title":"Legacy Titled Single Select Enum","description":"Choose your favorite type of pet","enum":["pet-1","pet-2","pet-3"],"enumNames":["Cats","Dogs","Birds"],"default":"pet-1"}},
"required":["name"]}`

// longToolName is wider than every terminal tried.
const longToolName = "fill_in_the_survey_of_favorite_things_with_a_name_longer_than_a_small_terminal_is_wide"

// boxSizes are the terminals every box must fit.
var boxSizes = [][2]int{{160, 48}, {80, 24}, {60, 20}}

// boxFits fails unless the screen is a box within a width × height
// terminal: no line wider, no more lines, both borders' corners there
// (the box is whole), and every want (its key hints) shown.
func boxFits(t *testing.T, got string, width, height int, want ...string) {
	t.Helper()
	fits(t, got, width)
	lines := strings.Split(got, "\n")
	if len(lines) > height {
		t.Errorf("%d lines in a %d-line terminal:\n%s", len(lines), height, got)
	}
	for _, corner := range []string{"╭", "╮", "╰", "╯"} {
		if !strings.Contains(got, corner) {
			t.Errorf("the box lost its corner %s at %dx%d:\n%s", corner, width, height, got)
		}
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%q is not shown at %dx%d:\n%s", w, width, height, got)
		}
	}
}

// TestBoxesFitSmallTerminals: server-everything's many-field form, at
// every size, keeps its border, its key hints and the focused field in
// view as tab moves through every field, and reflows on resize.
func TestBoxesFitSmallTerminals(t *testing.T) {
	m, sess, q := askerSession(t)
	done := callAskerWith(t, sess, "survey", nil)
	m, _ = m.Update(question(t, q))
	for _, sz := range boxSizes {
		m, _ = m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		got := screen(m)
		boxFits(t, got, sz[0], sz[1], "ctrl+s accept", "ctrl+x decline", "* required")
		golden(t, fmt.Sprintf("box-survey-%dx%d", sz[0], sz[1]), got)
		titles := []string{"Full Name", "Agree to terms", "Favorite Color", "Email Address", "Homepage", "Birthdate",
			"Favorite Integer", "Favorite Number", "Untitled Single", "Untitled Multiple", "Titled Single", "Titled Multiple", "Legacy Titled"}
		seen := map[string]bool{}
		for range titles {
			got := screen(m)
			boxFits(t, got, sz[0], sz[1], "ctrl+s accept", "* required")
			line := focusedLine(got)
			if line == "" {
				t.Errorf("at %dx%d the focused field is out of sight:\n%s", sz[0], sz[1], got)
			}
			for _, title := range titles {
				if strings.Contains(line, title) {
					seen[title] = true
				}
			}
			m = press(m, "tab")
		}
		for _, title := range titles {
			if !seen[title] {
				t.Errorf("at %dx%d tab never showed %q focused", sz[0], sz[1], title)
			}
		}
	}
	press(m, "ctrl+x")
	result(t, done)
}

// focusedLine is the line with the form's mark, "" when there is none.
func focusedLine(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "▸ ") {
			return l
		}
	}
	return ""
}

// TestEditorBoxesFit: the argument editor (form and JSON, a long tool
// name), the call history, the roots editor, the compare view's cells
// and the help screen fit 160x48, 80x24 and 60x20 with their borders
// and keys.
func TestEditorBoxesFit(t *testing.T) {
	m, _, _ := askerSession(t)
	for _, sz := range boxSizes {
		m, _ := m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		name := func(what string) string { return fmt.Sprintf("box-%s-%dx%d", what, sz[0], sz[1]) }

		ed := ui.Settle(press(m, "/", "f", "i", "l", "l", "enter", "i"))
		got := screen(ed)
		boxFits(t, got, sz[0], sz[1], "ctrl+s", "fill_in", "╮")
		golden(t, name("invoke-json"), steady(got))
		ed = press(ed, "tab")
		golden(t, name("invoke-form"), steady(screen(ed)))
		for range 14 {
			ed = press(ed, "down")
			got := screen(ed)
			boxFits(t, got, sz[0], sz[1], "ctrl+s")
			if !strings.Contains(got, "▸ ") {
				t.Errorf("at %dx%d the editor's focused field is out of sight:\n%s", sz[0], sz[1], got)
			}
		}
		press(ed, "esc", "esc", "esc")

		h := press(m, "H")
		got = screen(h)
		boxFits(t, got, sz[0], sz[1], "esc")
		golden(t, name("history"), steady(got))
		press(h, "esc")

		r := press(m, "O")
		got = screen(r)
		boxFits(t, got, sz[0], sz[1], "ctrl+s apply roots")
		golden(t, name("roots"), steady(got))
		press(r, "esc")
	}
}

// TestDemoBoxesFit: the compare view's cells and the help screen of the
// demo fit every size, their borders and their ways out shown.
func TestDemoBoxesFit(t *testing.T) {
	cfg, sess := demoSession(t)
	var base tea.Model = ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess})
	base, _ = base.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	base = settle(t, base, cfg, sess)
	for _, sz := range boxSizes {
		m, _ := base.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		cells := ui.Settle(press(m, "3", "j", "j", "enter"))
		got := screen(cells)
		boxFits(t, got, sz[0], sz[1], "esc closes", "? help")
		golden(t, fmt.Sprintf("box-compare-cells-%dx%d", sz[0], sz[1]), got)
		if strings.Contains(got, "more (pgdn)") {
			// The cells scroll: pgdn until the last is shown.
			for range 10 {
				cells, _ = cells.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
			}
			got = screen(cells)
			boxFits(t, got, sz[0], sz[1], "esc closes", "↑")
			if strings.Contains(got, "more (pgdn)") {
				t.Errorf("at %dx%d pgdn does not reach the last cell:\n%s", sz[0], sz[1], got)
			}
		} else if sz[1] < 30 {
			t.Errorf("at %dx%d every cell fits; the scroll is not tested", sz[0], sz[1])
		}
		press(cells, "esc", "1")

		got = screen(press(m, "?"))
		fits(t, got, sz[0])
		if lines := strings.Split(got, "\n"); len(lines) != sz[1] || !strings.Contains(got, "esc to close") {
			t.Errorf("the help screen at %dx%d has %d lines or lacks its way out:\n%s", sz[0], sz[1], len(lines), got)
		}
		golden(t, fmt.Sprintf("box-help-%dx%d", sz[0], sz[1]), got)
		press(m, "?")
	}
}

// TestQuestionBoxesFit: a sampling request and a URL to open fit every
// size too, with the keys that answer them.
func TestQuestionBoxesFit(t *testing.T) {
	m, sess, q := askerSession(t)
	for _, tc := range []struct{ tool, keys, answer string }{
		{"sample", "ctrl+s send reply", "esc"},
		{"login", "n decline", "n"},
	} {
		done := callAsker(t, sess, tc.tool)
		m, _ = m.Update(question(t, q))
		for _, sz := range boxSizes {
			m, _ = m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			got := screen(m)
			boxFits(t, got, sz[0], sz[1], tc.keys)
			golden(t, fmt.Sprintf("box-%s-%dx%d", tc.tool, sz[0], sz[1]), got)
		}
		m = press(m, tc.answer)
		result(t, done)
	}
}
