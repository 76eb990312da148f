package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/opener"
)

// What an app hosted with `a` (apps.go) asks of its host beyond its
// server: a link to open is asked about as a URL elicitation is (the same
// question, askview.go: the URL shown sanitized, y opens it through opener
// only when opener.Check takes it, n declines, esc cancels), and the app
// is told opened or refused; a message for the conversation, and the
// answers to links, are footer notes (sanitized by the host, secrets
// masked here), refused by the host: mcplens has no model to send them to.

// appNoteRoom bounds the notes of apps waiting to be shown; past it a note
// is dropped (its message is a frame of the wire pane all the same).
const appNoteRoom = 16

// appNoteMsg is a note of a hosted app's for the footer.
type appNoteMsg string

// waitAppNote returns the command that delivers the next note.
func waitAppNote(notes <-chan string) tea.Cmd {
	return func() tea.Msg { return appNoteMsg(<-notes) }
}

// appNotes is where hosted apps' notes go, made on the first app hosted;
// first says it was made now, for its waiting to start.
func (m *Model) appNotes() (notes chan string, first bool) {
	if m.appNote == nil {
		m.appNote = make(chan string, appNoteRoom)
		first = true
	}
	return m.appNote, first
}

// showAppNote shows a note of a hosted app's and waits for the next.
func (m *Model) showAppNote(msg appNoteMsg) tea.Cmd {
	m.say(m.c.styles.WarnText.Render(m.c.redact.Text(string(msg))))
	return waitAppNote(m.appNote)
}

// askLink asks whether to open the link url the app of tool on server
// asks for, and opens it on yes: nil when opened, the reason it was not.
func (q *Questions) askLink(ctx context.Context, server, tool, url string) error {
	params, err := json.Marshal(map[string]string{"mode": "url", "url": url,
		"message": fmt.Sprintf("the app of %s asks to open a link", model.QuoteJSON(tool))})
	if err != nil {
		return err
	}
	question := loader.Question{Server: server, Method: model.MethodElicit, Params: params}
	switch q.ask(ctx, askMsg{question: question, heard: hear(question), app: true}).Action {
	case mcp.ElicitationResponseActionAccept:
		return nil
	case mcp.ElicitationResponseActionDecline:
		if _, err := opener.Check(url); err != nil {
			return fmt.Errorf("declined, not openable: %w", err)
		}
		return errors.New("declined by the user")
	case mcp.ElicitationResponseActionCancel:
		return errors.New("cancelled by the user")
	}
	return errors.New("not answered before the page or the host went")
}
