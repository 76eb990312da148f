package ui_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/ui"
)

// retryBackend records the servers connected again after a login.
type retryBackend struct {
	benchBackend
	retried *[]string
}

func (b retryBackend) Retry(label string) bool {
	*b.retried = append(*b.retried, label)
	return true
}

// TestLoginKey: a server needing login says so; L logs it in while the
// other server's rows stay; the URL is shown whole; once the browser came
// back the server connects again; a failed login says why.
func TestLoginKey(t *testing.T) {
	specs := []config.ServerSpec{{Label: "ok"}, {Label: "remote", Transport: config.TransportHTTP}, {Label: "other", Transport: config.TransportHTTP}}
	var retried []string
	url := "https://as.example/authorize?client_id=dyn&code_challenge=" + strings.Repeat("x", 100) + "&end=1"
	back := make(chan error, 1)
	login := func(ctx context.Context, label string, show func(string)) error {
		if label == "remote" {
			show(url)
		}
		return <-back
	}
	model := ui.New(ui.Options{Title: "cfg.json", Servers: specs, Backend: retryBackend{benchBackend{events: make(chan mcpsession.Event)}, &retried}, Login: login})
	var m tea.Model = model
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "ok", State: mcpsession.Ready, Tools: nil}))
	for _, l := range []string{"remote", "other"} {
		m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: l, State: mcpsession.Failed, NeedsLogin: true, Err: "needs login: run mcplens login cfg.json " + l}))
	}
	s := screen(m)
	if !strings.Contains(s, "remote  http  needs login") || !strings.Contains(s, "needs login: run mcplens login cfg.json remote") ||
		!strings.Contains(s, "press L to log in") || !strings.Contains(s, "L log in") {
		t.Fatalf("before L:\n%s", s)
	}

	m, cmd := m.Update(ui.KeyPress("L"))
	msgs := runAll(cmd)
	if len(msgs) != 1 {
		t.Fatalf("L: %d messages, want the URL", len(msgs))
	}
	m, cmd = m.Update(msgs[0])
	s = screen(m)
	joined := strings.ReplaceAll(strings.ReplaceAll(s, "\n", ""), " ", "")
	if !strings.Contains(joined, url) || !strings.Contains(s, "1 login(s) waiting for the browser") || !strings.Contains(s, "advertises no tools") {
		t.Fatalf("the URL is not shown whole, or the footer or the other server lost:\n%s", s)
	}
	back <- nil
	for _, msg := range runAll(cmd) {
		m, _ = m.Update(msg)
	}
	if len(retried) != 1 || retried[0] != "remote" || !strings.Contains(screen(m), "logged in; connecting") {
		t.Fatalf("after the browser came back: retried %q\n%s", retried, screen(m))
	}

	m, cmd = m.Update(ui.KeyPress("L")) // the next server needing login
	back <- errors.New("oauth token at https://as.example/token failed: invalid_grant")
	for _, msg := range runAll(cmd) {
		m, _ = m.Update(msg)
	}
	if s := screen(m); !strings.Contains(s, "login failed: oauth token at https://as.example/token failed: invalid_grant") {
		t.Fatalf("a failed login does not say why:\n%s", s)
	}
}
