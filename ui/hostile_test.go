package ui_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// hostileSession opens demo alpha and the hostile server h in mode, with
// the environment env.
func hostileSession(t *testing.T, mode string, env []config.EnvVar, flags ...string) (*config.Config, *loader.Session) {
	t.Helper()
	return hostileSessionWithin(t, time.Second, mode, env, flags...)
}

// hostileSessionWithin is hostileSession with h's connect and listing
// bounded by timeout instead of a second.
func hostileSessionWithin(t *testing.T, timeout time.Duration, mode string, env []config.EnvVar, flags ...string) (*config.Config, *loader.Session) {
	t.Helper()
	cfg := demo.Config(os.Args[0])
	cfg.Servers = cfg.Servers[:1]
	cfg.Servers[0].Env = []config.EnvVar{{Key: demoEnv, Value: "alpha"}}
	h := hostile.Spec(t, "h", mode, flags...)
	h.Env = env
	h.Timeout = timeout // h's own: alpha keeps the default
	cfg.Servers = append(cfg.Servers, h)
	sess := loader.Open(cfg, loader.Options{})
	t.Cleanup(func() { sess.Close() })
	return cfg, sess
}

// pump feeds m the session's events for d, or until every server of cfg
// settled when d is 0, and returns how many events it fed.
func pump(t *testing.T, m tea.Model, cfg *config.Config, sess *loader.Session, d time.Duration) (tea.Model, int) {
	t.Helper()
	if d == 0 {
		return settle(t, m, cfg, sess), 0
	}
	n := 0
	deadline := time.After(d)
	for {
		select {
		case ev := <-sess.Events():
			m, _ = m.Update(ui.EventMsg(ev))
			n++
		case <-deadline:
			return m, n
		}
	}
}

// keyLimit bounds how long a key press may take to answer and redraw: far
// more than it takes (milliseconds), so that a loaded machine running the
// race detector passes, and far less than a stall.
const keyLimit = 5 * time.Second

// answersKeys presses p and checks the header names the next policy, then
// P and checks it is back, each press with its redraw within limit.
func answersKeys(t *testing.T, m tea.Model, limit time.Duration) tea.Model {
	t.Helper()
	policies := model.Policies()
	before := screen(m)
	start := time.Now()
	m = press(m, "p")
	after := screen(m)
	took := time.Since(start)
	if after == before || !strings.Contains(after, "policy: "+policies[1].Name+" (") {
		t.Errorf("p did not change the screen to the next policy:\n%s", after)
	}
	if took > limit {
		t.Errorf("p took %s to answer and redraw, want under %s", took, limit)
	} else if took > limit/10 {
		t.Logf("p took %s to answer and redraw", took)
	}
	m = press(m, "P")
	if got := screen(m); !strings.Contains(got, "policy: "+policies[0].Name+" (") {
		t.Errorf("P did not go back to %s:\n%s", policies[0].Name, got)
	}
	return m
}

// TestUIUnderHostileServers runs the interface beside each hostile server
// and checks it keeps answering keys: after the server settled and, for
// the servers that keep misbehaving, while they do.
func TestUIUnderHostileServers(t *testing.T) {
	for _, mode := range hostile.Modes {
		t.Run(mode, func(t *testing.T) {
			var flags []string
			if mode == "many" {
				flags = []string{"-tools", "10000", "-page", "1000"}
			}
			cfg, sess := hostileSession(t, mode, nil, flags...)
			var m tea.Model = ui.New(ui.Options{Title: "hostile " + mode, Servers: cfg.Servers, Backend: sess})
			m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
			// Keys work while the servers are still connecting.
			m = answersKeys(t, m, keyLimit)
			start := time.Now()
			m, _ = pump(t, m, cfg, sess, 0)
			t.Logf("settled in %s", time.Since(start))
			got := screen(m)
			if !strings.Contains(got, "alpha  stdio  ") || !strings.Contains(got, "advertised 2") {
				t.Errorf("alpha not listed beside h:\n%s", got)
			}
			m = answersKeys(t, m, keyLimit)
			switch mode {
			case "list-changed-flood", "list-changed-flood-big", "stderr-flood":
				// Keep feeding the flood, pressing keys in between.
				for range 5 {
					var n int
					m, n = pump(t, m, cfg, sess, 200*time.Millisecond)
					t.Logf("%d events in 200ms", n)
					m = answersKeys(t, m, keyLimit)
				}
			case "slow-call":
				m = slowCallCancelled(t, m, cfg, sess)
			case "exit-call":
				m = callEndsInError(t, m, cfg, sess)
			case "huge":
				m = brokenSchemaStillCallable(t, m)
			case "stray", "junk":
				m, _ = pump(t, m, cfg, sess, 300*time.Millisecond) // the faults after tools/list
				want := map[string][]string{
					"stray": {"protocol: answers id 9999, which no request is waiting for", "! answers id 9999, which no request is waiting for: {"},
					"junk":  {"protocol: stdout carries text that is not JSON", "~ junk hostile banner v1.0 (not JSON)", "~ junk log: answering"},
				}[mode]
				// Tall enough for every frame of both servers, the
				// listen stream's and the re-listing's included.
				m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 80})
				m = press(m, "w")
				got := screen(m)
				for _, w := range want {
					if !strings.Contains(got, w) {
						t.Errorf("screen with the wire pane lacks %q:\n%s", w, got)
					}
				}
				m = press(m, "w")
				m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
			}
			for _, k := range []string{"2", "5", "1", "w", "w", "?", "?"} {
				m = press(m, k)
			}
			answersKeys(t, m, keyLimit)
		})
	}
}

// slowCallCancelled invokes h's slow tool, waits for its progress to show,
// cancels it with esc and checks the result pane says so.
func slowCallCancelled(t *testing.T, m tea.Model, cfg *config.Config, sess *loader.Session) tea.Model {
	t.Helper()
	m = press(m, "G", "i") // h's slow tool is the last row
	if got := screen(m); !strings.Contains(got, "invoke slow") {
		t.Fatalf("i did not open the editor on slow:\n%s", got)
	}
	m, cmd := m.Update(ui.KeyPress("ctrl+s"))
	msgs := runCmd(cmd)
	// The call runs in its command; progress arrives meanwhile.
	var done tea.Msg
	deadline := time.Now().Add(5 * time.Second)
	for done == nil && time.Now().Before(deadline) {
		select {
		case msg := <-msgs:
			if ui.IsCallDone(msg) {
				done = msg
				break
			}
			m, cmd = m.Update(msg)
			forward(cmd, msgs)
		case ev := <-sess.Events():
			m, _ = m.Update(ui.EventMsg(ev))
		case <-time.After(50 * time.Millisecond):
		}
		if got := screen(m); strings.Contains(got, "progress 3 of 300") {
			break
		}
	}
	got := screen(m)
	if !strings.Contains(got, "calling…") || !strings.Contains(got, "of 300") || !strings.Contains(got, "esc cancels the call") {
		t.Fatalf("the call pane shows no progress:\n%s", got)
	}
	m = answersKeys(t, m, keyLimit) // keys still work during the call
	m = press(m, "esc")
	if got := screen(m); !strings.Contains(got, "cancelling… notifications/cancelled sent") {
		t.Errorf("esc did not cancel the call:\n%s", got)
	}
	for done == nil {
		select {
		case msg := <-msgs:
			if ui.IsCallDone(msg) {
				done = msg
			}
		case <-time.After(3 * time.Second):
			t.Fatal("the call did not end within 3s of esc")
		}
	}
	m, _ = m.Update(done)
	if got := screen(m); !strings.Contains(got, "cancelled after") || !strings.Contains(got, "notifications/cancelled") {
		t.Errorf("the result pane does not say the call was cancelled:\n%s", got)
	}
	return m
}

// callEndsInError invokes h's echo, whose server exits mid-call, and checks
// the call ends with an error and the server shows as failed.
func callEndsInError(t *testing.T, m tea.Model, cfg *config.Config, sess *loader.Session) tea.Model {
	t.Helper()
	m = press(m, "G", "i")
	m = sendAndWait(t, m, "a call to a server that exits mid-call did not end")
	m, _ = pump(t, m, cfg, sess, 500*time.Millisecond)
	got := screen(m)
	for _, want := range []string{"error: calling \"echo\" on h", "server exited (exit status 6)", "stderr: hostile: exiting during tools/call"} {
		if !strings.Contains(got, want) {
			t.Errorf("screen lacks %q:\n%s", want, got)
		}
	}
	return m
}

// brokenSchemaStillCallable selects h's tool whose inputSchema is
// {"type": 5}, checks the detail pane flags it, and calls it from the
// argument editor, which starts from {}.
func brokenSchemaStillCallable(t *testing.T, m tea.Model) tea.Model {
	t.Helper()
	m = press(m, "G")
	if got := screen(m); !strings.Contains(got, `! inputSchema "type" is a number, not "object"`) {
		t.Errorf("the detail pane does not flag the schema:\n%s", got)
	}
	m = press(m, "up", "up")
	if got := screen(m); !strings.Contains(got, "! inputSchema nests 2001 levels deep") {
		t.Errorf("the detail pane does not flag the nesting:\n%s", got)
	}
	m = press(m, "up")
	if got := screen(m); !strings.Contains(got, "description: A 1 MB description. All work") || len(got) > 200*50*4 {
		t.Errorf("the detail pane does not show the description's start, cut:\n%s", got)
	}
	m = press(m, "G", "i")
	if got := screen(m); !strings.Contains(got, "invoke schema_type_5") || !strings.Contains(got, "{}") {
		t.Fatalf("the argument editor did not open with {}:\n%s", got)
	}
	m = sendAndWait(t, m, "the call did not end")
	if got := screen(m); !strings.Contains(got, `hostile received schema_type_5`) {
		t.Errorf("the call's result is not shown:\n%s", got)
	}
	return m
}

// runCmd runs cmd, and every command a tea.Batch holds, each in its own
// goroutine, and delivers their messages.
func runCmd(cmd tea.Cmd) chan tea.Msg {
	msgs := make(chan tea.Msg, 16)
	forward(cmd, msgs)
	return msgs
}

func forward(cmd tea.Cmd, msgs chan tea.Msg) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				forward(c, msgs)
			}
			return
		}
		if msg != nil {
			msgs <- msg
		}
	}()
}

// TestUIEscapesServerText shows every view and pane of a server whose
// names, descriptions, schema, errors and stderr carry terminal escapes,
// bidi overrides and zero-width characters, and checks none reaches the
// terminal: each shows escaped instead.
func TestUIEscapesServerText(t *testing.T) {
	cfg, sess := hostileSession(t, "escapes", nil)
	var m tea.Model = ui.New(ui.Options{Title: "escapes", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	m, _ = pump(t, m, cfg, sess, 0)
	// Call the tool whose error carries escapes.
	m = press(m, "G", "i")
	m = sendAndWait(t, m, "the call did not end")
	var seen strings.Builder
	check := func(where string) {
		raw := m.View().Content
		seen.WriteString(raw)
		for _, bad := range []string{"\x07", "\x1b]0;pwned", "\x1b[2J", "\x1b[5m", "\u202e", "\u200b", "\ufeff"} {
			if strings.Contains(raw, bad) {
				t.Errorf("%s: the screen carries %q from the server raw", where, bad)
			}
		}
	}
	check("call result")
	m = press(m, "esc", "g")
	for i := range 4 {
		check("servers view, row " + string(rune('0'+i)))
		m = press(m, "down")
	}
	for _, v := range []string{"2", "3", "4", "5"} {
		m = press(m, v)
		check("view " + v)
	}
	m = press(m, "1", "w")
	check("wire pane")
	m = press(m, "w", "?")
	check("help")
	text := seen.String()
	for _, want := range []string{`red\x1b[31mtool\x1b[0m`, `evil\u202etxt.exe`, `zero\u200bwidth`, `it broke\x1b[2J`, `hostile\x1b]0;pwned\a`} {
		if !strings.Contains(text, want) {
			t.Errorf("no view shows %q escaped", want)
		}
	}
}

// TestUINeverShowsSecrets runs a server whose env and arguments carry
// secrets, and checks no view or pane shows them.
func TestUINeverShowsSecrets(t *testing.T) {
	cfg, sess := hostileSession(t, "ok", []config.EnvVar{{Key: "API_KEY", Value: "sk-SECRET-ENV"}}, "-token", "SECRET-ARG")
	var m tea.Model = ui.New(ui.Options{Title: "secrets", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	m, _ = pump(t, m, cfg, sess, 0)
	if got := screen(m); !strings.Contains(got, "h  stdio  ") || !strings.Contains(got, "echo") {
		t.Fatalf("h not listed:\n%s", got)
	}
	for _, keys := range [][]string{{}, {"G"}, {"2"}, {"3"}, {"4"}, {"5"}, {"1", "w"}, {"w", "?"}} {
		m = press(m, keys...)
		if got := m.View().Content; strings.Contains(got, "SECRET") {
			t.Errorf("after %q the screen shows a secret:\n%s", keys, got)
		}
	}
}

// TestUINoCallWithoutSend records every method the servers receive while
// the interface is driven through every view, the argument editor opened
// and closed, and checks no tool was called.
func TestUINoCallWithoutSend(t *testing.T) {
	record := filepath.Join(t.TempDir(), "methods")
	cfg, sess := hostileSession(t, "bad-rows", nil, "-record", record)
	var m tea.Model = ui.New(ui.Options{Title: "no calls", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m, _ = pump(t, m, cfg, sess, 0)
	for _, k := range []string{"G", "i", "esc", "g", "enter", "esc", "p", "p", "2", "i", "esc", "3", "4", "5", "1", "w", "w", "?", "?"} {
		m = press(m, k)
	}
	pump(t, m, cfg, sess, 300*time.Millisecond)
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); strings.Contains(got, "tools/call") || !strings.Contains(got, "tools/list") {
		t.Errorf("h received:\n%s\nwant tools/list and no tools/call", got)
	}
}

// sendAndWait presses ctrl+s in the open editor and runs the call's
// commands until the call is done, failing with failure if it never ends.
func sendAndWait(t *testing.T, m tea.Model, failure string) tea.Model {
	t.Helper()
	m, cmd := m.Update(ui.KeyPress("ctrl+s"))
	msgs := runCmd(cmd)
	for deadline := time.After(10 * time.Second); ; {
		var msg tea.Msg
		select {
		case msg = <-msgs:
		case <-deadline:
			t.Fatal(failure)
		}
		m, cmd = m.Update(msg)
		forward(cmd, msgs)
		if ui.IsCallDone(msg) {
			return m
		}
	}
}
