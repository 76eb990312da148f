package ui_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcplens/mcplens/internal/testkit/everything"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// applyRoots presses ctrl+s in the open roots editor and delivers the end
// of applying its folders.
func applyRoots(t *testing.T, m tea.Model) tea.Model {
	t.Helper()
	m, cmd := m.Update(ui.KeyPress("ctrl+s"))
	if cmd == nil {
		t.Fatalf("ctrl+s in the roots editor applied nothing:\n%s", screen(m))
	}
	msgs := runCmd(cmd)
	deadline := time.After(20 * time.Second)
	for {
		select {
		case msg := <-msgs:
			if ui.IsRootsSet(msg) {
				m, _ = m.Update(msg)
				return m
			}
		case <-deadline:
			t.Fatalf("applying the roots did not end within 20s:\n%s", screen(m))
		}
	}
}

// flat is s without its spaces and box sides: the text of lines wrapped
// in a box, joined again.
func flat(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "│", "")), "")
}

// rootsTaken counts the times server said it took the roots mcplens
// answered its roots/list with (server-everything logs "Roots updated"
// once it holds them).
func rootsTaken(sess *loader.Session, server string) int {
	n := 0
	for _, f := range sess.FrameLog(server).Frames() {
		if f.Dir == mcpsession.In && strings.Contains(string(f.Bytes), `"method":"notifications/message"`) && strings.Contains(string(f.Bytes), "Roots updated") {
			n++
		}
	}
	return n
}

// everythingWithRoots connects server-everything as VS Code (roots with
// listChanged), answering roots/list with the folder before; after is
// another folder.
func everythingWithRoots(t *testing.T) (cfg *config.Config, sess *loader.Session, before, after string) {
	t.Helper()
	entry := everything.Entry(t)
	before, after = filepath.Join(t.TempDir(), "before-root"), filepath.Join(t.TempDir(), "after-root")
	for _, d := range []string{before, after} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	vscode, err := model.ClientNamed("vscode")
	if err != nil {
		t.Fatal(err)
	}
	cfg = &config.Config{Servers: []config.ServerSpec{{Label: "everything", Transport: config.TransportStdio, Command: "node", Args: []string{entry, "stdio"}}}}
	sess = loader.Open(cfg, loader.Options{Timeout: 30 * time.Second, Handshake: vscode.Handshake, Answers: loader.Answers{Roots: []string{before}}})
	t.Cleanup(func() { sess.Close() })
	return cfg, sess, before, after
}

// TestRootsEditorEverything changes the roots from the interface, over a
// real server-everything connected as VS Code (roots with listChanged):
// folders that are not are refused with nothing sent; real ones are
// applied, the server is sent notifications/roots/list_changed, asks
// roots/list again, and its get-roots-list tool, invoked from the
// interface, reports the new folder alone.
func TestRootsEditorEverything(t *testing.T) {
	cfg, sess, before, after := everythingWithRoots(t)
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var m tea.Model = ui.New(ui.Options{Title: "everything.json", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	m = settle(t, m, cfg, sess)
	if got := screen(m); !strings.Contains(got, "roots: before-root") {
		t.Errorf("the header does not name the root:\n%s", got)
	}

	m = press(m, "O")
	if got := screen(m); !strings.Contains(got, "the folders roots/list is answered with") || !strings.Contains(got, before) {
		t.Fatalf("O opened no editor on %s:\n%s", before, got)
	}
	m = press(m, "esc")
	if got := screen(m); strings.Contains(got, "the folders roots/list is answered with") {
		t.Fatalf("esc left the editor open:\n%s", got)
	}

	asked := rootsTaken(sess, "everything")
	m = press(m, "O")
	m = ui.SetRootsText(m, after+"\n"+file+"\n"+filepath.Join(after, "missing"))
	m = applyRoots(t, m)
	got := screen(m)
	for _, want := range []string{file + `" is a file, not a folder`, filepath.Join(after, "missing") + `" is not an existing folder`} {
		if !strings.Contains(flat(got), flat(want)) {
			t.Errorf("refused roots: the editor lacks %q:\n%s", want, got)
		}
	}
	if r := sess.Roots(); len(r) != 1 || r[0] != before {
		t.Fatalf("roots after a refusal = %q, want [%s]", r, before)
	}

	m = ui.SetRootsText(m, after+"\n\n"+after+"\n")
	m = applyRoots(t, m)
	if got := screen(m); !strings.Contains(got, "roots: 1 folder, list_changed sent to 1 server") || !strings.Contains(got, "roots: after-root") {
		t.Fatalf("after applying, the footer or header is wrong:\n%s", got)
	}
	for deadline := time.Now().Add(20 * time.Second); rootsTaken(sess, "everything") == asked; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("server-everything did not take the roots again after notifications/roots/list_changed")
		}
	}

	m = press(m, "g")
	for range 30 {
		if m = press(m, "i"); strings.Contains(screen(m), "invoke get-roots-list") {
			break
		}
		m = press(m, "esc", "down")
	}
	if got := screen(m); !strings.Contains(got, "invoke get-roots-list") {
		t.Fatalf("no editor on get-roots-list:\n%s", got)
	}
	m = send(t, m)
	if got := screen(m); !strings.Contains(got, "file://"+after) || strings.Contains(got, "file://"+before) {
		t.Errorf("get-roots-list after the change does not report %s alone:\n%s", after, got)
	}

	m = press(m, "O")
	m = applyRoots(t, m)
	if got := screen(m); !strings.Contains(got, "roots: 1 folder, unchanged") {
		t.Errorf("applying the same roots: footer lacks the note:\n%s", got)
	}
}

// TestRootsEditorGolden draws the roots editor at 80x24, over a session
// whose roots are two folders, then with the folders it refused.
func TestRootsEditorGolden(t *testing.T) {
	cfg := demo.Config(os.Args[0])
	for i := range cfg.Servers {
		s := &cfg.Servers[i]
		s.Env = append(s.Env, config.EnvVar{Key: demoEnv, Value: s.Label})
	}
	sess := loader.Open(cfg, loader.Options{Timeout: 20 * time.Second, Answers: loader.Answers{Roots: []string{"/srv/project/api", "/srv/project/web"}}})
	t.Cleanup(func() { sess.Close() })
	var m tea.Model = ui.New(ui.Options{Title: "project.json", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 24})
	m = settle(t, m, cfg, sess)
	if got := screen(m); !strings.Contains(got, "roots: api, web") {
		t.Errorf("the header does not name the roots:\n%s", got)
	}
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = press(m, "O")
	golden(t, "roots-editor-80x24", screen(m))
	m = ui.SetRootsText(m, "/nonexistent-mcplens/api\n/nonexistent-mcplens/a/folder/whose/path/is/longer/than/the/editor/is/wide\n")
	m = applyRoots(t, m)
	golden(t, "roots-editor-refused-80x24", screen(m))
}

// TestRootDirs reads the editor's text as ctrl+s does.
func TestRootDirs(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"a", "b"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	tests := []struct {
		name, text string
		want       []string
		problem    string
	}{
		{name: "nothing", text: "\n  \n", want: nil},
		{name: "relative made absolute", text: "a\n./b/\n", want: []string{a, b}},
		{name: "kept once, in order", text: b + "\n" + a + "\n  " + b + "  \n", want: []string{b, a}},
		{name: "a file", text: "a\nf", problem: `"` + filepath.Join(dir, "f") + `" is a file, not a folder`},
		{name: "missing", text: "nope", problem: `"` + filepath.Join(dir, "nope") + `" is not an existing folder`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ui.RootDirs(tt.text)
			if tt.problem != "" {
				if err == nil || !strings.Contains(err.Error(), tt.problem) {
					t.Errorf("RootDirs(%q) error = %v, want %q", tt.text, err, tt.problem)
				}
				return
			}
			if err != nil || strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("RootDirs(%q) = %q, %v, want %q", tt.text, got, err, tt.want)
			}
		})
	}
}

// TestRootsProgram changes the roots in the running program, typed key by
// key: the footer says server-everything, connected as VS Code, was told.
func TestRootsProgram(t *testing.T) {
	cfg, sess, _, after := everythingWithRoots(t)
	tm := teatest.NewTestModel(t, ui.New(ui.Options{Title: "everything.json", Servers: cfg.Servers, Backend: sess}), teatest.WithInitialTermSize(160, 40))
	waitFor := func(what string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(what)) },
			teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	waitFor("get-roots-list")
	tm.Send(ui.KeyPress("O"))
	waitFor("the folders roots/list is answered with")
	tm.Send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}) // the line before the cursor: the old root
	tm.Type(after)
	tm.Send(ui.KeyPress("ctrl+s"))
	waitFor("list_changed sent to 1 server")
	tm.Send(ui.KeyPress("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	if r := sess.Roots(); len(r) != 1 || r[0] != after {
		t.Errorf("roots = %q, want [%s]", r, after)
	}
}
