package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/opener"
)

// Questions carry the requests servers send for someone to answer
// (elicitations, sampling) from the loader's goroutines to the interface,
// and the answers back. Its Ask is loader.Answers.Ask.
type Questions struct {
	asks chan askMsg
	// open opens a URL in a browser, for a URL-mode elicitation: opener.Open.
	open func(url string) error
}

// NewQuestions returns the link between a session's Answers.Ask and the
// interface given it in Options.Questions.
func NewQuestions() *Questions {
	return &Questions{asks: make(chan askMsg), open: opener.Open}
}

// An askMsg is a question on its way to the interface, with where its
// answer goes (never blocking: it has room for one).
type askMsg struct {
	question loader.Question
	heard    heard
	reply    chan<- loader.Reply
	// app is set for a question an app asks (applink.go), which the end of
	// its server's call does not answer.
	app bool
}

// Ask hands the question to the interface and waits for the answer, or for
// ctx to end: then it answers nothing, which the loader takes as cancel.
func (q *Questions) Ask(ctx context.Context, question loader.Question) loader.Reply {
	return q.ask(ctx, askMsg{question: question, heard: hear(question)})
}

// ask hands msg to the interface, with where its answer goes.
func (q *Questions) ask(ctx context.Context, msg askMsg) loader.Reply {
	reply := make(chan loader.Reply, 1)
	msg.reply = reply
	select {
	case q.asks <- msg:
	case <-ctx.Done():
		return loader.Reply{}
	}
	select {
	case r := <-reply:
		return r
	case <-ctx.Done():
		return loader.Reply{}
	}
}

// waitAsk returns the command that delivers the next question.
func waitAsk(q *Questions) tea.Cmd {
	if q == nil {
		return nil
	}
	return func() tea.Msg { return <-q.asks }
}

// answer sends the reply to the question shown, closes it, and waits for
// the next.
func (m *Model) answer(r loader.Reply) tea.Cmd {
	if m.ask == nil {
		return nil
	}
	m.ask.msg.reply <- r
	m.ask = nil
	return waitAsk(m.questions)
}

// quit ends the program from any state: the question shown, if any, is
// cancelled first, without waiting for anyone to take the answer (its
// channel has room for it).
func (m *Model) quit() tea.Cmd {
	if m.ask != nil {
		m.ask.msg.reply <- loader.Reply{Action: mcp.ElicitationResponseActionCancel}
		m.ask = nil
	}
	return tea.Quit
}

// openURL opens url in a browser, in the background.
func (q *Questions) openURL(url string) tea.Cmd {
	return func() tea.Msg {
		_ = q.open(url) // a browser that does not start leaves the URL on screen to copy
		return nil
	}
}
