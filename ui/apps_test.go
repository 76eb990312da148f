package ui_test

import (
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/browsertest"
	"github.com/mcplens/mcplens/loader/config"
)

// The servers view shows the app-only tool registered under mcplens's own
// handshake and kept from the model under Claude Desktop's, which hosts
// apps; a on a tool with an app hosts it on loopback and hands the page to
// the opener.
func TestAppKeyHostsTheApp(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "appserver")
	cmd := exec.Command("go", "build", "-o", bin, "./internal/testkit/appserver")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./internal/testkit/appserver: %v\n%s", err, out)
	}
	cfg := &config.Config{Path: "apps config", Servers: []config.ServerSpec{{Label: "board", Command: bin}}}
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
