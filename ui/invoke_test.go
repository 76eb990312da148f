package ui_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/ui"
)

// send presses ctrl+s in the open editor and delivers the call's result.
func send(t *testing.T, m tea.Model) tea.Model {
	t.Helper()
	m, cmd := m.Update(ui.KeyPress("ctrl+s"))
	if cmd == nil {
		t.Fatalf("ctrl+s in the editor placed no call:\n%s", screen(m))
	}
	// The call and its progress run in commands: deliver the call's end.
	msgs := runCmd(cmd)
	for {
		select {
		case msg := <-msgs:
			if ui.IsCallDone(msg) {
				m, _ = m.Update(msg)
				return m
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the call did not end within 10s:\n%s", screen(m))
		}
	}
}

// TestInvokeRoutes places real calls through the demo servers and checks
// the result pane: the registered name leaving the registry, the wire name
// in the exact request frame, and the server that answered.
func TestInvokeRoutes(t *testing.T) {
	cfg, sess := demoSession(t)
	var m tea.Model = ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	m = settle(t, m, cfg, sess)

	tests := []struct {
		name   string
		policy string
		keys   []string // moves from the first row
		editor []string // what the argument editor says before the call
		want   []string // what the result pane says after it
		reject []string
	}{
		{
			name:   "lionagi qualifies, the wire carries the bare name",
			policy: "lionagi",
			editor: []string{"invoke mcp__alpha__request under lionagi", "route: mcp__alpha__request → alpha as request"},
			want: []string{"registry: mcp__alpha__request → route alpha / request",
				`"method":"tools/call","params":{"name":"request"`, `alpha received tool \"request\"`},
		},
		{
			name:   "lionagi-legacy: beta's request is unreachable, the call goes to alpha",
			policy: "lionagi-legacy",
			keys:   []string{"down", "down"},
			editor: []string{"beta's request is unreachable: request routes to alpha as request"},
			want: []string{"invoked from beta's request, which is unreachable: the call went to alpha",
				"registry: request → route alpha / request",
				`alpha received tool \"request\"`},
			reject: []string{`beta received tool`},
		},
		{
			name:   "lionagi-legacy-update: the same name now goes to beta",
			policy: "lionagi-legacy-update",
			editor: []string{"alpha's request is unreachable: request routes to beta as request"},
			want: []string{"invoked from alpha's request, which is unreachable: the call went to beta",
				"registry: request → route beta / request",
				`beta received tool \"request\"`},
			reject: []string{`alpha received tool`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := ui.SetPolicy(m, tt.policy)
			if !ok {
				t.Fatalf("no policy %s", tt.policy)
			}
			m = press(m, "g")
			m = press(m, tt.keys...)
			m = press(m, "i")
			ed := screen(m)
			if !strings.Contains(ed, "arguments (JSON):") {
				t.Fatalf("i did not open the argument editor:\n%s", ed)
			}
			for _, w := range tt.editor {
				if !strings.Contains(ed, w) {
					t.Errorf("argument editor lacks %q:\n%s", w, ed)
				}
			}
			m = send(t, m)
			got := screen(m)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("result pane lacks %q:\n%s", w, got)
				}
			}
			for _, r := range tt.reject {
				if strings.Contains(got, r) {
					t.Errorf("result pane has %q:\n%s", r, got)
				}
			}
		})
	}
}

// cutBackend answers every call with the start of an answer over the line
// limit, as the loader reports one.
type cutBackend struct{ quietBackend }

func (cutBackend) Call(context.Context, string, string, json.RawMessage) (mcpsession.CallResult, error) {
	res := mcpsession.CallResult{Server: "a", Wire: "big",
		Request:  []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"big"}}`),
		Response: []byte(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"xxxx`), ResponseSize: 16 << 20}
	return res, &loader.LimitError{Limit: "line", Max: 16 << 20, What: "a line of stdout"}
}

// A call whose answer was cut says so under the frame, as `mcplens call`
// does, beside the error naming the limit.
func TestInvokeShowsCutAnswer(t *testing.T) {
	var m tea.Model = ui.New(ui.Options{Title: "test config", Servers: []config.ServerSpec{{Label: "a", Command: "srv"}}, Backend: cutBackend{}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "a", State: mcpsession.Ready, Tools: listed(`{"name":"big"}`)}))
	m = send(t, press(m, "i"))
	s := screen(m)
	for _, want := range []string{"of over 16777216 bytes]", "over the 16MiB line limit"} {
		if !strings.Contains(s, want) {
			t.Errorf("the call pane lacks %q:\n%s", want, s)
		}
	}
}

// The argument editor follows the window: opened on a wide screen, it fits
// a narrow one once the window shrinks.
func TestInvokeEditorFollowsWindow(t *testing.T) {
	var m tea.Model = ui.New(ui.Options{Title: "test config", Servers: []config.ServerSpec{{Label: "a", Command: "srv"}}, Backend: cutBackend{}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "a", State: mcpsession.Ready, Tools: listed(`{"name":"big"}`)}))
	m = press(m, "i")
	m, _ = m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	got := screen(m)
	if !strings.Contains(got, "invoke big") || !strings.Contains(got, "╰") {
		t.Fatalf("the editor is not shown whole after the window shrank:\n%s", got)
	}
	for i, l := range strings.Split(got, "\n") {
		if w := ansi.StringWidth(strings.TrimRight(l, " ")); w > 60 {
			t.Errorf("line %d is %d columns wide in a 60-column window:\n%s", i, w, got)
		}
	}
}
