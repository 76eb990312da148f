package ui_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/history"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/ui"
)

var (
	ctrlN = tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl}
	ctrlR = tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
)

// lastTrip is the last tools/call frame written to the asker for trip.
func lastTrip(sess *loader.Session) string {
	last := ""
	for _, f := range sess.FrameLog("asker").Frames() {
		if f.Dir == mcpsession.Out && strings.Contains(string(f.Bytes), `"name":"trip"`) {
			last = string(f.Bytes)
		}
	}
	return last
}

// calls counts the tools/call frames written to server for tool.
func calls(sess *loader.Session, server, tool string) int {
	n := 0
	for _, f := range sess.FrameLog(server).Frames() {
		if f.Dir == mcpsession.Out && strings.Contains(string(f.Bytes), `"method":"tools/call"`) && strings.Contains(string(f.Bytes), `"name":"`+tool+`"`) {
			n++
		}
	}
	return n
}

// tripCalls counts the calls of the asker's trip.
func tripCalls(sess *loader.Session) int { return calls(sess, "asker", "trip") }

// openTrip opens the argument editor on the asker's trip, its last row.
func openTrip(t *testing.T, m tea.Model) tea.Model {
	t.Helper()
	m = press(m, "G", "i")
	if got := screen(m); !strings.Contains(got, "invoke trip") {
		t.Fatalf("G, i did not open trip's editor:\n%s", got)
	}
	return m
}

// deliverDone runs cmd, the commands of a call, and delivers the call's
// end, then runs what that starts until the history file is written.
func deliverDone(t *testing.T, m tea.Model, cmd tea.Cmd) tea.Model {
	t.Helper()
	msgs := runCmd(cmd)
	deadline := time.After(20 * time.Second)
	for {
		select {
		case msg := <-msgs:
			if ui.IsHistoryWritten(msg) {
				m, _ = m.Update(msg)
				return m
			}
			if ui.IsCallDone(msg) {
				var next tea.Cmd
				m, next = m.Update(msg)
				forwardTo(next, msgs)
			}
		case <-deadline:
			t.Fatalf("the call did not end and get written within 20s:\n%s", screen(m))
		}
	}
}

// forwardTo runs cmd and delivers its messages to msgs.
func forwardTo(cmd tea.Cmd, msgs chan tea.Msg) { forward(cmd, msgs) }

// sendAndWrite presses ctrl+s in the editor and waits for the call to
// end and the history file to be written.
func sendAndWrite(t *testing.T, m tea.Model) tea.Model {
	t.Helper()
	m, cmd := m.Update(ui.KeyPress("ctrl+s"))
	if cmd == nil {
		t.Fatalf("ctrl+s placed no call:\n%s", screen(m))
	}
	return deliverDone(t, m, cmd)
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestInvokeValidation: arguments that fail the input schema are listed by
// JSON pointer and nothing reaches the server; ctrl+s again sends them
// anyway, as they are. JSON with an error says its line and column.
func TestInvokeValidation(t *testing.T) {
	m, sess, _ := askerSession(t)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = openTrip(t, m)
	if got := screen(m); !strings.Contains(got, `"city": ""`) || !strings.Contains(got, `"days": 3`) || strings.Contains(got, `"units"`) {
		t.Errorf("the skeleton should hold the required city and the defaulted days, not the optional units:\n%s", got)
	}
	if got := screen(m); !strings.Contains(got, "/units one of \"metric\" | \"imperial\"") || !strings.Contains(got, "/city* string · where to") {
		t.Errorf("the JSON mode lacks its hints:\n%s", got)
	}

	m = ui.SetArguments(m, "{\n  \"city\": x\n}")
	m = press(m, "ctrl+s")
	if got := screen(m); !strings.Contains(got, "arguments: line 2, column 11: invalid character 'x'") {
		t.Errorf("JSON with an error should say where:\n%s", got)
	}

	m = ui.SetArguments(m, `{"city": 5, "days": 0}`)
	m = press(m, "ctrl+s")
	got := screen(m)
	for _, want := range []string{"the arguments fail the input schema (2): nothing was sent", "/city: got number, want string", "/days: minimum: got 0, want 1"} {
		if !strings.Contains(got, want) {
			t.Errorf("refused arguments: the editor lacks %q:\n%s", want, got)
		}
	}
	if n := tripCalls(sess); n != 0 {
		t.Fatalf("%d tools/call frames reached the server for arguments refused", n)
	}
	send(t, m) // ctrl+s again: sent anyway
	if n := tripCalls(sess); n != 1 {
		t.Fatalf("%d tools/call frames after sending anyway, want 1", n)
	}
	if got := lastTrip(sess); !strings.Contains(got, `"arguments":{"city":5,"days":0}`) {
		t.Errorf("the call sent anyway carried %s, want the arguments as typed", got)
	}
}

// TestInvokeForm: the form mode edits what the JSON mode shows (enums,
// arrays of objects), tab carries the arguments across both ways, and the
// call sends what the form says.
func TestInvokeForm(t *testing.T) {
	m, sess, _ := askerSession(t)
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		m, _ = m.Update(tea.WindowSizeMsg{Width: size.w, Height: size.h})
		m = openTrip(t, m)
		m = press(m, "tab")
		golden(t, fmt.Sprintf("invoke-form-%dx%d", size.w, size.h), screen(m))
		m = press(m, "esc") // nothing typed: closes at once
	}
	m = openTrip(t, m)
	m = press(m, "tab", "L", "y", "o", "n", "down", "down", "right", "down")
	m, _ = m.Update(ctrlN) // an item of stops, built from its items schema, focused
	m = press(m, "down", "D", "i", "j", "o", "n")
	m, _ = m.Update(ctrlN)
	m, _ = m.Update(ctrlR) // a second item, added and removed
	golden(t, "invoke-form-filled", screen(m))
	m = press(m, "tab")
	got := screen(m)
	for _, want := range []string{`"city": "Lyon"`, `"units": "metric"`, `"name": "Dijon"`, `"days": 3`} {
		if !strings.Contains(got, want) {
			t.Errorf("the JSON mode after the form lacks %s:\n%s", want, got)
		}
	}
	m = press(m, "tab") // and back: nothing lost
	if got := screen(m); !strings.Contains(got, "Lyon") || !strings.Contains(got, "Dijon") || !strings.Contains(got, "‹ metric ›") {
		t.Errorf("the form after JSON lost what was typed:\n%s", got)
	}
	send(t, m)
	if got := lastTrip(sess); !strings.Contains(got, `"arguments":{"city":"Lyon","days":3,"units":"metric","stops":[{"name":"Dijon"}]}`) {
		t.Errorf("the form's call carried %s", got)
	}
}

// TestInvokeEscAsks: esc throws typed arguments away only once asked.
func TestInvokeEscAsks(t *testing.T) {
	m, _, _ := askerSession(t)
	m = openTrip(t, m)
	m = press(m, "x", "esc")
	if got := screen(m); !strings.Contains(got, "throw away the arguments typed? y throws them away") {
		t.Fatalf("esc with arguments typed did not ask:\n%s", got)
	}
	m = press(m, "n")
	if got := screen(m); !strings.Contains(got, "invoke trip") {
		t.Fatalf("n should go back to the editor:\n%s", got)
	}
	m = press(m, "esc", "y")
	if got := screen(m); strings.Contains(got, "invoke trip") {
		t.Fatalf("esc, y should close the editor:\n%s", got)
	}
}

// TestHistorySurvivesARestart: a call made in one run is in the history
// file (0600); the next run reopens the tool on its arguments, lists it
// with H, and R places it again.
func TestHistorySurvivesARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.jsonl")
	m, _, _ := askerSession(t)
	if err := ui.OpenHistory(m, path); err != nil {
		t.Fatal(err)
	}
	m = openTrip(t, m)
	m = ui.SetArguments(m, `{"city": "Lyon", "days": 2}`)
	sendAndWrite(t, m)
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("history file: %v, mode %v; want it written 0600", err, fi.Mode().Perm())
	}

	// The next run: a new interface, a new server process.
	next, sess2, _ := askerSession(t)
	next, _ = next.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	mm := next.(ui.Model)
	if err := ui.OpenHistory(mm, path); err != nil {
		t.Fatal(err)
	}
	next = openTrip(t, mm)
	if got := screen(next); !strings.Contains(got, `"city": "Lyon"`) || !strings.Contains(got, `"days": 2`) {
		t.Errorf("reopening trip should start from the last call's arguments:\n%s", got)
	}
	next = press(next, "esc")
	next = press(next, "H")
	if got := screen(next); !strings.Contains(got, "call history") || !strings.Contains(got, "asker trip") || !strings.Contains(got, `{"city":"Lyon","days":2}`) {
		t.Errorf("H should list the call of the last run:\n%s", got)
	}
	next = press(next, "esc")
	next, cmd := next.Update(ui.KeyPress("R"))
	if cmd == nil {
		t.Fatal("R placed no call")
	}
	deliverDone(t, next, cmd)
	if n := tripCalls(sess2); n != 1 {
		t.Errorf("R: %d trip calls in the second run, want 1", n)
	}
	records, _ := history.Parse(mustRead(t, path))
	if len(records) != 2 || records[0].Tool != "trip" || string(records[0].Arguments) != `{"city":"Lyon","days":2}` || len(records[0].Frames) != 2 {
		t.Errorf("history file holds %+v, want both calls, the first with its arguments and frames", records)
	}
	// In the history, enter opens the editor on the chosen call's
	// arguments and sends nothing; R there sends the chosen call again.
	next = press(next, "esc", "H")
	if got := screen(next); !strings.Contains(got, "enter edit this call") || !strings.Contains(got, "R send it again") {
		t.Errorf("the history does not say what enter and R do:\n%s", got)
	}
	edit, _ := press(next, "up").Update(ui.KeyPress("enter"))
	if got := screen(edit); !strings.Contains(got, `"city": "Lyon"`) || strings.Contains(got, "call history") {
		t.Errorf("enter in the history does not open the editor on the call's arguments:\n%s", got)
	}
	if n := tripCalls(sess2); n != 1 {
		t.Errorf("enter in the history sent a call: %d trip calls, want 1", n)
	}
	next = press(edit, "esc", "H", "up")
	next, cmd = next.Update(ui.KeyPress("R"))
	if cmd == nil {
		t.Fatal("R in the history placed no call")
	}
	deliverDone(t, next, cmd)
	if n := tripCalls(sess2); n != 2 {
		t.Errorf("R in the history: %d trip calls, want 2", n)
	}
}

// TestInvokeFormEscapes: what a schema says reaches the terminal escaped,
// in the form and in the JSON mode's hints and skeleton alike.
func TestInvokeFormEscapes(t *testing.T) {
	m, _, _ := askerSession(t)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	for _, mode := range []string{"json", "form"} {
		m = press(m, "g", "down", "down", "down", "i")
		if got := screen(m); !strings.Contains(got, "invoke odd") {
			t.Fatalf("g, down ×3, i did not open odd's editor:\n%s", got)
		}
		if mode == "form" {
			m = press(m, "tab", "down")
		}
		raw := m.View().Content
		for _, bad := range []string{"\x1b[31mred", "\x1b]8;;", "\x1b[2J", "\u202e"} {
			if strings.Contains(raw, bad) {
				t.Errorf("the %s mode sends %q to the terminal", mode, bad)
			}
		}
		m = press(m, "esc", "y")
	}
}

// TestHistoryRefusesAForeignFile: a history path that holds something
// else is left alone, and the footer says so.
func TestHistoryRefusesAForeignFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("{\"my\": \"notes\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _, _ := askerSession(t)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	if err := ui.OpenHistory(m, path); err == nil {
		t.Fatal("opening a file of notes as the history said nothing")
	}
	m = openTrip(t, m)
	m = sendAndWrite(t, m)
	if got := screen(m); !strings.Contains(got, "writing the history: "+path+" was not written by mcplens") {
		t.Errorf("the footer should say the history was not written:\n%s", got)
	}
	if b := mustRead(t, path); string(b) != "{\"my\": \"notes\"}\n" {
		t.Errorf("the notes became %q", b)
	}
}
