package ui_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// askedAt returns a 120×40 interface showing q, and where the answer to q
// arrives.
func askedAt(t *testing.T, q loader.Question) (tea.Model, <-chan loader.Reply) {
	t.Helper()
	var m tea.Model = ui.New(ui.Options{Title: "big", Backend: benchBackend{events: make(chan mcpsession.Event)}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	qs := ui.NewQuestions()
	replies := make(chan loader.Reply, 1)
	go func() { replies <- qs.Ask(context.Background(), q) }()
	m, _ = m.Update(ui.NextQuestion(qs))
	return m, replies
}

func reply(t *testing.T, replies <-chan loader.Reply) loader.Reply {
	t.Helper()
	select {
	case r := <-replies:
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("the question was not answered within 20s")
	}
	return loader.Reply{}
}

// TestAskLong: a question of megabytes shows its first lines, each cut to
// the form's width, says how much there is, and ctrl+o reads it whole in
// the reader, where esc goes back to the question.
func TestAskLong(t *testing.T) {
	for _, method := range []string{model.MethodCreateMessage, model.MethodElicit} {
		t.Run(method, func(t *testing.T) {
			m, replies := askedAt(t, bigQuestion(method, 4<<20))
			got := screen(m)
			if n := strings.Count(got, "All work and no play"); n == 0 || n > 12 {
				t.Errorf("the question shows %d lines of its text, want 1 to 12:\n%s", n, got)
			}
			if !regexp.MustCompile(`… 4\.0 MB, 665\d\d lines in all · ctrl\+o reads it in full`).MatchString(got) {
				t.Errorf("the question does not say how long it is and how to read it:\n%s", got)
			}
			for _, l := range strings.Split(got, "\n") {
				if w := len([]rune(l)); w > 120 {
					t.Errorf("a line of %d columns on a screen of 120: %q", w, l)
				}
			}
			m = press(m, "ctrl+o", "G")
			if got := screen(m); !strings.Contains(got, "QUESTION") || !regexp.MustCompile(`lines 665\d\d–665\d\d of 665\d\d`).MatchString(got) {
				t.Errorf("ctrl+o did not open the whole question in the reader at its end:\n%s", got)
			}
			m = press(m, "esc")
			if got := screen(m); !strings.Contains(got, "ctrl+o reads it in full") {
				t.Errorf("esc did not go back to the question:\n%s", got)
			}
			press(m, "esc") // esc cancels, or rejects
			if r := reply(t, replies); r.Action != mcp.ElicitationResponseActionCancel && r.Action != mcp.ElicitationResponseActionDecline {
				t.Errorf("esc answered %q, want cancel or decline", r.Action)
			}
		})
	}
}

// TestAskInterrupt: ctrl+c quits with a question open, whatever has the
// focus in it, cancelling the question first.
func TestAskInterrupt(t *testing.T) {
	m, replies := askedAt(t, bigQuestion(model.MethodCreateMessage, 1<<10))
	m = press(m, "h", "i") // typed in the reply
	_, cmd := m.Update(ui.KeyPress("ctrl+c"))
	if cmd == nil {
		t.Fatal("ctrl+c with a question open did nothing")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("ctrl+c with a question open does not quit")
	}
	if r := reply(t, replies); r.Action != mcp.ElicitationResponseActionCancel {
		t.Errorf("the question was answered %q at ctrl+c, want cancel", r.Action)
	}
}

// TestAskManyFields: an elicitation of thousands of fields with long
// titles and descriptions draws the rows in sight, each within the
// screen.
func TestAskManyFields(t *testing.T) {
	var props []string
	for i := range 5000 {
		props = append(props, fmt.Sprintf(`"field_%04d_%s":{"type":"string","description":%q,"enum":[%s]}`,
			i, strings.Repeat("n", 200), strings.Repeat("described at length ", 50), strings.Repeat(`"x",`, 300)+`"y"`))
	}
	q := loader.Question{Server: "big", Method: model.MethodElicit,
		Params: []byte(`{"message":"many","requestedSchema":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}`)}
	m, _ := askedAt(t, q)
	got := screen(m)
	if n := strings.Count(got, "field_"); n == 0 || n > 40 {
		t.Errorf("the form shows %d fields of 5000, want those in sight:\n%s", n, got)
	}
	for _, l := range strings.Split(got, "\n") {
		if w := len([]rune(l)); w > 120 {
			t.Errorf("a line of %d columns on a screen of 120: %q", w, l)
		}
	}
}
