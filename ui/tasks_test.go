package ui_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/internal/testkit/everything"
	"github.com/mcplens/mcplens/internal/testkit/taskserver"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// taskSession is the interface on the task server over loopback HTTP,
// connected as vscode, which runs tasks.
func taskSession(t *testing.T) (tea.Model, *taskserver.Server) {
	t.Helper()
	srv := taskserver.New()
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	vscode, err := model.ClientNamed("vscode")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Servers: []config.ServerSpec{{Label: "tasks", Transport: config.TransportHTTP, URL: ts.URL + "/mcp"}}}
	sess := loader.Open(cfg, loader.Options{Timeout: 30 * time.Second, Handshake: vscode.Handshake})
	t.Cleanup(func() { sess.Close() })
	um := ui.New(ui.Options{Title: "tasks.json", Servers: cfg.Servers, Backend: sess, Client: vscode.Key()})
	var m tea.Model = um
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m = settle(t, m, cfg, sess)
	m = press(m, "g")
	for range 10 {
		if m = press(m, "i"); strings.Contains(screen(m), "invoke slow") {
			return m, srv
		}
		m = press(m, "esc", "down")
	}
	t.Fatalf("no editor on slow:\n%s", screen(m))
	return nil, nil
}

// pumpCall delivers the messages of cmd and of what they lead to until the
// call ends, calling each after every message, and returns the model.
func pumpCall(t *testing.T, m tea.Model, cmd tea.Cmd, each func(tea.Model) tea.Model) tea.Model {
	t.Helper()
	msgs := runCmd(cmd)
	deadline := time.After(30 * time.Second)
	for {
		select {
		case msg := <-msgs:
			m, cmd = m.Update(msg)
			if ui.IsCallDone(msg) {
				return m
			}
			forward(cmd, msgs)
			if each != nil {
				m = each(m)
			}
		case <-deadline:
			t.Fatalf("the call did not end within 30s:\n%s", screen(m))
		}
	}
}

// TestTasksPane: a tool that must run as a task runs as one under a
// client that runs tasks; T shows it in the tasks pane, running then
// completed, and enter reads its result; ctrl+x there cancels a running
// one, which the server hears as tasks/cancel.
func TestTasksPane(t *testing.T) {
	m, srv := taskSession(t)
	m = ui.SetArguments(m, `{"ms": 200}`)
	m, cmd := m.Update(ui.KeyPress("ctrl+s"))
	m = press(m, "T")
	m = pumpCall(t, m, cmd, nil)
	m = press(m, "T")
	got := screen(m)
	if !strings.Contains(got, "TASKS") || !strings.Contains(got, "completed") || !strings.Contains(got, "tasks / slow") || !strings.Contains(got, "2025-11-25") {
		t.Fatalf("the tasks pane lacks the completed task:\n%s", got)
	}
	m, cmd = m.Update(ui.KeyPress("enter"))
	msgs := runCmd(cmd)
	for deadline := time.After(10 * time.Second); !strings.Contains(screen(m), "slow done after 200ms"); {
		select {
		case msg := <-msgs:
			m, _ = m.Update(msg)
		case <-deadline:
			t.Fatalf("enter did not read the task's result:\n%s", screen(m))
		}
	}
	m = press(m, "esc", "esc")

	m = press(m, "i")
	m = ui.SetArguments(m, `{"ms": 60000}`)
	m, cmd = m.Update(ui.KeyPress("ctrl+s"))
	m = press(m, "T")
	cancelled := false
	m = pumpCall(t, m, cmd, func(m tea.Model) tea.Model {
		if !cancelled && strings.Contains(screen(m), "working") {
			cancelled = true
			return press(m, "ctrl+x")
		}
		return m
	})
	if !cancelled || len(srv.Cancelled()) != 1 {
		t.Fatalf("ctrl+x on the running task: server saw tasks/cancel for %q:\n%s", srv.Cancelled(), screen(m))
	}
	if got := screen(m); !strings.Contains(got, "cancelled") {
		t.Errorf("the pane does not say the task was cancelled:\n%s", got)
	}
	// The call's pane says what the server was sent: tasks/cancel, not
	// the notifications/cancelled of a request still running.
	if got := screen(m); !strings.Contains(got, "sent tasks/cancel") || strings.Contains(got, "notifications/cancelled") {
		t.Errorf("the call's pane does not say the task was sent tasks/cancel:\n%s", got)
	}
}

// TestTasksPaneEverything: server-everything's simulate-research-query
// runs as a task from the interface under vscode, its clarifying question
// opens the form, and the choice made there reaches the report.
func TestTasksPaneEverything(t *testing.T) {
	entry := everything.Entry(t)
	vscode, err := model.ClientNamed("vscode")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Servers: []config.ServerSpec{{Label: "everything", Transport: config.TransportStdio, Command: "node", Args: []string{entry, "stdio"}}}}
	q := ui.NewQuestions()
	sess := loader.Open(cfg, loader.Options{Timeout: 30 * time.Second, Handshake: vscode.Handshake, Answers: loader.Answers{Ask: q.Ask}})
	t.Cleanup(func() { sess.Close() })
	um := ui.New(ui.Options{Title: "everything.json", Servers: cfg.Servers, Backend: sess, Questions: q, Client: vscode.Key()})
	var m tea.Model = um
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	m = settle(t, m, cfg, sess)
	m = press(m, "g")
	for range 40 {
		if m = press(m, "i"); strings.Contains(screen(m), "invoke simulate-research-query") {
			break
		}
		m = press(m, "esc", "down")
	}
	if !strings.Contains(screen(m), "invoke simulate-research-query") {
		t.Fatalf("no editor on simulate-research-query:\n%s", screen(m))
	}
	m = ui.SetArguments(m, `{"topic": "python", "ambiguous": true}`)
	m, cmd := m.Update(ui.KeyPress("ctrl+s"))
	asked := false
	m = pumpCall(t, m, tea.Batch(cmd, func() tea.Msg { return ui.NextQuestion(q) }), func(m tea.Model) tea.Model {
		if !asked && strings.Contains(screen(m), "could have multiple interpretations") {
			asked = true
			return press(m, "right", "ctrl+s")
		}
		return m
	})
	got := screen(press(m, "T"))
	if !asked || !strings.Contains(got, "completed") || !strings.Contains(got, "simulate-research-query") {
		t.Fatalf("asked %v; the tasks pane lacks the completed research:\n%s", asked, got)
	}
	res := sess.FrameLog("everything").Frames()
	last := string(res[len(res)-1].Bytes)
	for _, f := range res {
		if strings.Contains(string(f.Bytes), "# Research Report: python (") {
			last = string(f.Bytes)
		}
	}
	if !strings.Contains(last, "Clarification**: programming") && !strings.Contains(last, "Clarification**: snake") && !strings.Contains(last, "Clarification**: comedy") {
		t.Errorf("the report does not carry the choice made in the form: %.400s", last)
	}
}
