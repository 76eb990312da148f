package ui_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/internal/testkit/auditee"
	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/internal/testkit/scale"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// updating reports whether -update was given: the flag is the one teatest's
// golden files register, so one -update refreshes every golden here.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

const demoEnv = "MCPLENS_TEST_DEMO"

// TestMain lets the test binary serve as the demo servers, so the views are
// tested against real processes over real pipes; arguments after
// `__demo-server LABEL` name the tools it advertises instead of the demo's.
func TestMain(m *testing.M) {
	if os.Getenv(askerEnv) != "" {
		if err := serveAsker(); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	if label := os.Getenv(demoEnv); label != "" {
		var names []string
		if len(os.Args) > 3 && os.Args[1] == demo.Subcommand {
			names = os.Args[3:]
		}
		if err := demo.Serve(label, names...); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	auditee.Cleanup()
	hostile.Cleanup()
	scale.Cleanup()
	os.Exit(code)
}

// demoSession opens the demo config served by this test binary.
func demoSession(t *testing.T) (*config.Config, *loader.Session) {
	t.Helper()
	cfg := demo.Config(os.Args[0])
	for i := range cfg.Servers {
		s := &cfg.Servers[i]
		s.Env = append(s.Env, config.EnvVar{Key: demoEnv, Value: s.Label})
	}
	// The panes' tests read the frames of the handshake revisions
	// (initialize first, no _meta): the session asks for 2025-11-25. The
	// stateless wire is tested in loader and cli.
	sess := loader.Open(cfg, loader.Options{Timeout: 20 * time.Second, Protocol: model.Revision20251125})
	t.Cleanup(func() { sess.Close() })
	return cfg, sess
}

// settle feeds m the session's events until every server is ready or failed.
func settle(t *testing.T, m tea.Model, cfg *config.Config, sess *loader.Session) tea.Model {
	t.Helper()
	pending := map[string]bool{}
	for _, s := range cfg.Servers {
		pending[s.Label] = true
	}
	deadline := time.After(30 * time.Second)
	for len(pending) > 0 {
		select {
		case ev := <-sess.Events():
			if !ev.Frames && (ev.State == mcpsession.Ready || ev.State == mcpsession.Failed) {
				delete(pending, ev.Server)
			}
			m, _ = m.Update(ui.EventMsg(ev))
		case <-deadline:
			t.Fatalf("servers still connecting after 30s: %v", pending)
		}
	}
	return m
}

func press(m tea.Model, keys ...string) tea.Model {
	for _, k := range keys {
		m, _ = m.Update(ui.KeyPress(k))
	}
	return m
}

func screen(m tea.Model) string {
	return ansi.Strip(m.View().Content)
}

// golden compares got with testdata/NAME.golden, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden (run with -update to create it): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n--- got\n%s\n--- want\n%s", name, path, got, want)
	}
}

func TestDemoViewsGolden(t *testing.T) {
	cfg, sess := demoSession(t)
	var m tea.Model = ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	m = settle(t, m, cfg, sess)

	for _, p := range model.Policies() {
		policy := p.Name
		t.Run(policy, func(t *testing.T) {
			got := screen(m)
			if !strings.Contains(got, "policy: "+policy+" (") {
				t.Fatalf("header does not name policy %s:\n%s", policy, got)
			}
			golden(t, "servers-"+policy, got)
		})
		m = press(m, "p")
	}
	// p cycled through every policy: back at the first.
	if got := screen(m); !strings.Contains(got, "policy: lionagi-legacy (") {
		t.Errorf("after cycling through every policy it is not lionagi-legacy again:\n%s", got)
	}
}

func TestHelpListsEveryPolicy(t *testing.T) {
	cfg, sess := demoSession(t)
	var m tea.Model = ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 60}) // the whole help on one screen
	m = press(m, "?")
	got := screen(m)
	for _, want := range []string{"lionagi-legacy", "lionagi-legacy-update", "qwen", "symfonic", "next policy", "invoke", "wire pane", "quit"} {
		if !strings.Contains(got, want) {
			t.Errorf("help screen lacks %q:\n%s", want, got)
		}
	}
}
