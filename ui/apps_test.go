package ui_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/internal/testkit/apppage"
	"github.com/mcplens/mcplens/internal/testkit/browsertest"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/ui"
)

// The servers view shows the app-only tool registered under mcplens's own
// handshake and kept from the model under Claude Desktop's, which hosts
// apps; a on a tool with an app hosts it on loopback and hands the page to
// the opener.
func TestAppKeyHostsTheApp(t *testing.T) {
	cfg := &config.Config{Path: "apps config", Servers: []config.ServerSpec{{Label: "board", Command: appServer(t)}}}
	m, sess := openConfig(t, cfg, 220, 40)
	if got := screen(m); !strings.Contains(got, "board_state") || strings.Contains(got, "app only: _meta.ui.visibility") {
		t.Errorf("under mcplens's handshake board_state is not registered:\n%s", got)
	}
	m = settle(t, press(m, "c", "c", "c"), cfg, sess) // claude-code, claude-desktop@2025, @2026
	if got := screen(m); !strings.Contains(got, "claude-desktop@2026") || !strings.Contains(got, "app only: _meta.ui.visibility") {
		t.Errorf("under claude-desktop@2026 board_state is not kept from the model:\n%s", got)
	}

	for _, want := range []string{`app: ui://board/app.html · visibility ["app"]`, "app CSP: none declared", "app asks for: camera (mcplens's host grants none)"} {
		if got := screen(m); !strings.Contains(got, want) {
			t.Errorf("the detail pane lacks %q:\n%s", want, got)
		}
	}
	if got := screen(press(m, "7")); !strings.Contains(got, "board_state (app only: models)") {
		t.Errorf("the gated view does not say which clients' models see board_state:\n%s", got)
	}
	m = press(m, "1")

	b := browsertest.New(t)
	m = pressRun(t, m, "a")
	got := screen(m)
	if !strings.Contains(got, "hosted at http://127.0.0.1:") {
		t.Fatalf("a does not host the app:\n%s", got)
	}
	url := b.Wait(t, 1)[0][0]
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `sandbox="allow-scripts allow-forms"`) {
		t.Errorf("the page handed to the opener: %d\n%s", resp.StatusCode, body)
	}
}

// appServer builds the test server of apps.
func appServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "appserver")
	cmd := exec.Command("go", "build", "-o", bin, "./internal/testkit/appserver")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./internal/testkit/appserver: %v\n%s", err, out)
	}
	return bin
}

// TestAppLinkAsked hosts the app with a and posts to its host what the
// app would: a link is asked about as a URL elicitation is, y opens it
// through the opener (the URL one argument of $BROWSER) and the app gets
// {}; a javascript: link is shown with the opener's reason, y does nothing
// and n refuses it; a message for the conversation is a footer note,
// secrets masked, and refused.
func TestAppLinkAsked(t *testing.T) {
	const secret = "sk-live-0a1b2c3d4e5f6a7b8c9d"
	cfg := &config.Config{Path: "apps config", Servers: []config.ServerSpec{{Label: "board", Command: appServer(t),
		Env: []config.EnvVar{{Key: "API_KEY", Value: secret}}}}}
	q := ui.NewQuestions()
	sess := loader.Open(cfg, loader.Options{Timeout: 20 * time.Second})
	t.Cleanup(func() { sess.Close() })
	var m tea.Model = ui.New(ui.Options{Title: cfg.Path, Servers: cfg.Servers, Backend: sess, Questions: q})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 220, Height: 40})
	m = settle(t, m, cfg, sess)

	b := browsertest.New(t)
	m = pressRun(t, m, "a")
	page := b.Wait(t, 1)[0][0]
	post := func(body string) <-chan string { return apppage.Post(page, body) }
	link := func(id int, link string) <-chan string {
		params, _ := json.Marshal(map[string]string{"url": link})
		return post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ui/open-link","params":%s}`, id, params))
	}

	const good = "https://example.com/board?next=%2F&a=$(id)"
	answer := link(1, good)
	m, _ = m.Update(question(t, q))
	if got := screen(m); !strings.Contains(got, "the app of") || !strings.Contains(got, "asks to open a link") || !strings.Contains(got, good) || !strings.Contains(got, "y open in a browser") {
		t.Errorf("the link is not asked about:\n%s", got)
	}
	var cmd tea.Cmd
	m, cmd = m.Update(ui.KeyPress("y"))
	next := runCmd(cmd) // the browser opens, and the next question is awaited
	if got := result(t, answer); !strings.Contains(got, `"id":1,"jsonrpc":"2.0","result":{}`) {
		t.Errorf("the app was told %s, want {}", got)
	}
	if calls := b.Wait(t, 2); !slices.Equal(calls[1], []string{good}) {
		t.Errorf("the browser ran with %q, want [%q]", calls[1], good)
	}

	answer = link(2, "javascript:alert(document.cookie)")
	select {
	case msg := <-next:
		m, _ = m.Update(msg)
	case <-time.After(20 * time.Second):
		t.Fatal("no second question within 20s")
	}
	m, cmd = m.Update(ui.KeyPress("y"))
	if got := screen(m); !strings.Contains(got, `scheme "javascript"`) || strings.Contains(got, "y open in a browser") || cmd != nil {
		t.Errorf("a javascript: link is offered, or y did something:\n%s", got)
	}
	m = press(m, "n")
	if got := result(t, answer); !strings.Contains(got, `"code":-32000,"message":"refused: declined, not openable`) {
		t.Errorf("the app was told %s, want refused", got)
	}
	if calls := b.Calls(); len(calls) != 2 {
		t.Errorf("the browser ran %d times, want 2: %q", len(calls), calls)
	}

	answer = post(`{"jsonrpc":"2.0","id":3,"method":"ui/message","params":{"role":"user","content":[{"type":"text","text":"key ` + secret + ` \u001b[2J"}]}}`)
	if got := result(t, answer); !strings.Contains(got, "refused: this host has no model") {
		t.Errorf("the message was answered %s", got)
	}
	for {
		m, _ = m.Update(ui.NextAppNote(m))
		if got := screen(m); strings.Contains(got, "asks to post a message") {
			if strings.Contains(got, secret) || strings.Contains(got, "\x1b") || !strings.Contains(got, `"text":"key `) {
				t.Errorf("the message's note, its secret masked and escape shown:\n%s", got)
			}
			break
		}
	}
}

// TestAppNotHostedMasksSecrets: a server whose app resource cannot be read
// answers with an error quoting the config's secret among terminal escapes;
// a says the app is not hosted, the escapes shown escaped and the secret
// masked.
func TestAppNotHostedMasksSecrets(t *testing.T) {
	const secret = "app-token-4f9c2e7d1b"
	cfg := &config.Config{Path: "apps config", Servers: []config.ServerSpec{{Label: "board", Command: appServer(t),
		Args: []string{"-read-error"}, Env: []config.EnvVar{{Key: "APP_TOKEN", Value: secret}}}}}
	m, _ := openConfig(t, cfg, 400, 40) // wide enough for the footer to hold the whole error
	m = pressRun(t, m, "a")
	raw := m.View().Content
	if got := screen(m); !strings.Contains(got, "not hosted") || !strings.Contains(got, "no app for token ****") {
		t.Errorf("a on an unreadable app does not say why, its secret masked:\n%s", got)
	}
	for _, bad := range []string{secret, "\x1b]0;pwned", "\u202e", "\u009b"} {
		if strings.Contains(raw, bad) {
			t.Errorf("the screen carries %q raw", bad)
		}
	}
}

// TestAppKeyHostsOncePerApp: a held down, or pressed again, hosts the app
// once: each press after the first opens the page of the host running
// (one read of the app resource, one loopback server), where each press
// used to start a host of its own, each holding the app's HTML for the
// host's lifetime (30 minutes).
func TestAppKeyHostsOncePerApp(t *testing.T) {
	cfg := &config.Config{Path: "apps config", Servers: []config.ServerSpec{{Label: "board", Command: appServer(t)}}}
	m, sess := openConfig(t, cfg, 220, 40)
	b := browsertest.New(t)
	for range 5 {
		m = pressRun(t, m, "a")
	}
	calls := b.Wait(t, 5)
	for _, c := range calls[1:] {
		if !slices.Equal(c, calls[0]) {
			t.Errorf("a opened %q, then %q: want the page of the host running", calls[0], c)
		}
	}
	frames, _, _ := sess.FrameLog("board").Since(0)
	reads := 0
	for _, f := range frames {
		if strings.Contains(string(f.Bytes), `"method":"resources/read"`) {
			reads++
		}
	}
	if reads != 1 {
		t.Errorf("the app resource was read %d times, want once", reads)
	}
	if got := screen(m); !strings.Contains(got, "hosted at http://127.0.0.1:") {
		t.Errorf("a again does not say where the app is:\n%s", got)
	}
}
