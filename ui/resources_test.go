//go:build unix

package ui_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/ui"
)

// promptSession runs two servers whose prompts collide as slash commands
// (testdata/servers/prompts).
func promptSession(t *testing.T) (*config.Config, *loader.Session) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "prompts")
	build := exec.Command("go", "build", "-o", bin, "./testdata/servers/prompts")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building testdata/servers/prompts: %v\n%s", err, out)
	}
	cfg := &config.Config{Servers: []config.ServerSpec{
		{Label: "alpha", Transport: config.TransportStdio, Command: bin, Args: []string{"alpha"}},
		{Label: "beta", Transport: config.TransportStdio, Command: bin, Args: []string{"beta"}},
	}}
	sess := loader.Open(cfg, loader.Options{Timeout: 20 * time.Second})
	t.Cleanup(func() { sess.Close() })
	return cfg, sess
}

// step presses key and feeds back the view's answer to what it started,
// if it started something, and the reader the answer opens.
func step(t *testing.T, m tea.Model, key string) tea.Model {
	t.Helper()
	m, cmd := m.Update(ui.KeyPress(key))
	for msg := ui.OfferResult(cmd, 10*time.Second); msg != nil; msg = ui.OfferResult(cmd, 10*time.Second) {
		m, cmd = m.Update(msg)
	}
	return m
}

func wantScreen(t *testing.T, m tea.Model, what string, wants ...string) {
	t.Helper()
	got := screen(m)
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Fatalf("%s: the screen lacks %q:\n%s", what, w, got)
		}
	}
}

// TestResourcesView opens the resources & prompts view on two real
// servers, under gemini-cli and claude-code (goldens), reads a resource,
// fills a prompt's argument by completion and gets it, and reads a
// template's resource; each answer opens in the reader.
func TestResourcesView(t *testing.T) {
	cfg, sess := promptSession(t)
	mm := ui.New(ui.Options{Title: "prompts", Servers: cfg.Servers, Backend: sess, Policy: "gemini-cli"})
	var m tea.Model = mm
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m = settle(t, m, cfg, sess)
	m = press(m, "6")
	wantScreen(t, m, "gemini-cli", "/alpha.greet  renamed", "/beta.greet  renamed", "/code_review  registered")
	golden(t, "resources-gemini-cli", screen(m))
	m = press(m, "P", "P") // codex, then claude-code
	wantScreen(t, m, "claude-code", "/mcp__alpha__greet  renamed")
	golden(t, "resources-claude-code", screen(m))

	// alpha's lines: heading, logo, notes, items/{id}, code review, greet.
	m = press(m, "down", "down")
	// Listed by name; the detail gives the URI whole.
	wantScreen(t, m, "notes selected", "  notes  ", "alpha · notes", "uri: mem://alpha/notes")
	m = step(t, m, "enter")
	wantScreen(t, m, "reading notes", "resources/read mem://alpha/notes", "resource mem://alpha/notes", "text/plain · 14 B",
		"notes of alpha", "lines 1–3 of 3", "y copy")
	m = press(m, "esc")
	wantScreen(t, m, "back from reading", "SLASH COMMAND / TYPE")
	m = step(t, m, "u")
	wantScreen(t, m, "subscribing", "subscribed to mem://alpha/notes", "text/plain · subscribed")
	if err := syscall.Kill(sess.Pid("alpha"), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(screen(m), "1 updates") && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	wantScreen(t, m, "after an update", "text/plain · subscribed · 1 updates", "updates: 1, the last at ")
	m = press(m, "up")
	m = step(t, m, "enter")
	wantScreen(t, m, "reading the logo", "resource mem://alpha/logo   o saves it", "image/png · 4 B", "o save")
	narrow, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	footerKeeps(t, screen(narrow))
	dir := t.TempDir()
	t.Chdir(dir)
	m = pressRun(t, m, "o")
	wantScreen(t, m, "saving the logo", "mcplens-alpha-mem___alpha_logo")
	if b, err := os.ReadFile(filepath.Join(dir, "mcplens-alpha-mem___alpha_logo.png")); err != nil || string(b) != "\x89PNG" {
		t.Fatalf("the logo saved: %q, %v; want \\x89PNG", b, err)
	}
	m = press(m, "esc", "down", "down", "down", "down")

	wantScreen(t, m, "greet's detail", "under claude-code: /mcp__alpha__greet  renamed", "argument name*: Who to greet.", `as listed: {"name":"greet"`)
	m = step(t, m, "enter") // greet's form
	wantScreen(t, m, "greet's form", "prompt greet", "▸ name*", "Who to greet.")
	m = step(t, m, "tab")
	wantScreen(t, m, "completing name", "tab: ada · alan · grace")
	m = step(t, m, "tab")
	m = step(t, m, "ctrl+s")
	wantScreen(t, m, "getting greet", "prompts/get greet", "user · text", "alpha greets alan", "lines 1–")
	m = press(m, "esc")
	wantScreen(t, m, "back to greet's form", "prompt greet", "name*")
	m = press(m, "esc", "up", "up")

	m = step(t, m, "enter") // the template's form
	m = step(t, m, "1")
	m = step(t, m, "tab")
	wantScreen(t, m, "completing id", "tab: 1 · 10")
	m = step(t, m, "ctrl+s")
	wantScreen(t, m, "reading items/1", "item mem://alpha/items/1")
}
