package ui_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/ui"
)

// scopeError is a server's 403 insufficient_scope, as the oauth transport
// reports one.
type scopeError struct{}

func (scopeError) Error() string {
	return "needs login: run mcplens login cfg.json remote (the server asks for more scopes than the stored token has: mcp:write)"
}
func (scopeError) NeedsLogin() bool { return true }

// scopeBackend refuses every call for want of scope, and records the
// servers connected again.
type scopeBackend struct {
	quietBackend
	retried *[]string
}

func (scopeBackend) Call(context.Context, string, string, json.RawMessage) (mcpsession.CallResult, error) {
	return mcpsession.CallResult{Server: "remote", Wire: "write"}, scopeError{}
}

func (b scopeBackend) Retry(label string) bool {
	*b.retried = append(*b.retried, label)
	return true
}

// TestStepUpAsksFirst: a call refused for want of scope mid-session never
// logs in on its own; the server says so and L logs in again, after which
// the server connects again.
func TestStepUpAsksFirst(t *testing.T) {
	var retried []string
	logins := 0
	model := ui.New(ui.Options{Title: "cfg.json", Servers: []config.ServerSpec{{Label: "remote", Transport: config.TransportHTTP}}, Backend: scopeBackend{retried: &retried},
		Login: func(ctx context.Context, label string, show func(string)) error {
			logins++
			return nil
		}})
	var m tea.Model = model
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "remote", State: mcpsession.Ready, Tools: listed(`{"name":"write"}`)}))
	m = send(t, press(m, "i"))
	if logins != 0 {
		t.Fatalf("the refused call logged in on its own (%d logins)", logins)
	}
	m = press(m, "esc")
	s := screen(m)
	if !strings.Contains(s, "a call was refused: needs login") || !strings.Contains(s, "mcp:write") || !strings.Contains(s, "press L to log in") {
		t.Fatalf("the refusal is not shown under the server with L offered:\n%s", s)
	}
	m, cmd := m.Update(ui.KeyPress("L"))
	for _, msg := range runAll(cmd) {
		m, _ = m.Update(msg)
	}
	if logins != 1 || len(retried) != 1 || retried[0] != "remote" {
		t.Fatalf("after L: %d logins, retried %q; want one login and the server connected again", logins, retried)
	}
	if s := screen(m); strings.Contains(s, "a call was refused") {
		t.Errorf("the refusal is still shown after the login:\n%s", s)
	}
}
