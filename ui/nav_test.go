package ui_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/internal/testkit/scale"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/ui"
)

// openConfig opens cfg in a session and the interface at w×h, and feeds it
// the session's events until every server is ready or failed.
func openConfig(t *testing.T, cfg *config.Config, w, h int) (tea.Model, *loader.Session) {
	t.Helper()
	sess := loader.Open(cfg, loader.Options{Timeout: 20 * time.Second})
	t.Cleanup(func() { sess.Close() })
	var m tea.Model = ui.New(ui.Options{Title: cfg.Path, Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return settle(t, m, cfg, sess), sess
}

// failingConfig is three healthy scale servers, then one that exits
// printing why on stderr.
func failingConfig(t *testing.T) *config.Config {
	cfg := scaleConfig(t, 3, 12, 0)
	cfg.Path = "failing config"
	cfg.Servers = append(cfg.Servers, config.ServerSpec{Label: "broken", Command: "sh",
		Args: []string{"-c", "echo 'boom: missing API_KEY' >&2; exit 1"}})
	return cfg
}

// A failed server declared after three healthy ones shows its failure and
// its stderr at 160x48, and the header counts the servers by status.
func TestFailedServerInSight(t *testing.T) {
	m, _ := openConfig(t, failingConfig(t), 160, 48)
	m, _ = ui.SetPolicy(m, "claude-code") // the scale servers share names: qualified, all three are ok
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	got := screen(m)
	for _, want := range []string{"3 ok · 1 failed (broken)", "✗ broken failed: initialize: server exited", "stderr: boom: missing API_KEY"} {
		if !strings.Contains(got, want) {
			t.Errorf("screen lacks %q:\n%s", want, got)
		}
	}
}

// Typing / and part of a name keeps the rows that match among 144, and
// the keys typed do nothing else: no pane opens, no report is written,
// no editor opens. n moves between matches; esc brings every row back.
func TestFindAmong144Rows(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg := scaleConfig(t, 3, 48, 0)
	m, _ := openConfig(t, cfg, 80, 24)
	target := scale.Name(1, 47)
	if got := screen(press(m, "/")); !strings.Contains(got, "  144 rows") || strings.Contains(got, "0 of 144") {
		t.Errorf("an empty / does not count every row shown:\n%s", got)
	}
	m = press(m, append([]string{"/"}, strings.Split("write", "")...)...)
	got := screen(m)
	if strings.Contains(got, "WIRE all servers") || strings.Contains(got, "invoke ") {
		t.Errorf("typing /write opened a pane or the editor:\n%s", got)
	}
	if _, err := os.Stat(ui.ReportFile); err == nil {
		t.Errorf("typing /write wrote a report")
	}
	if !strings.Contains(got, "/write") || !strings.Contains(got, "of 144 rows") {
		t.Errorf("the footer does not show the query and its count:\n%s", got)
	}
	// / again starts a new query: the filter kept stays until a key
	// changes it, then the new query replaces it.
	m = press(m, "enter", "/")
	if got := screen(m); !strings.Contains(got, "of 144 rows") {
		t.Errorf("/ dropped the filter kept before a key was typed:\n%s", got)
	}
	m = press(m, "r", "e", "a", "d", "enter")
	if got := screen(m); !strings.Contains(got, "/read ") || strings.Contains(got, "writeread") {
		t.Errorf("/ after a kept filter does not start a new query:\n%s", got)
	}
	m = press(m, "/", "esc")
	m = press(m, "esc")
	for range len("write") + 1 {
		m = press(m, "backspace")
	}
	m = press(m, append([]string{"/"}, strings.Split(target, "")...)...)
	m = press(m, "enter")
	got = screen(m)
	if !strings.Contains(got, target) || !strings.Contains(got, "1 of 144 rows") {
		t.Errorf("/%s does not find the one row:\n%s", target, got)
	}
	if strings.Contains(got, scale.Name(0, 1)) {
		t.Errorf("/%s keeps a row that does not match:\n%s", target, got)
	}
	if !strings.Contains(got, scale.Label(1)+" · "+target) {
		t.Errorf("the match is not selected (detail pane):\n%s", got)
	}
	// Reading the detail with the filter kept, at 80 columns, the footer
	// keeps esc close.
	footerKeeps(t, screen(press(m, "e")))
	m = press(m, "esc")
	got = screen(m)
	if strings.Contains(got, "of 144 rows") || !strings.Contains(got, scale.Name(1, 46)) {
		t.Errorf("esc does not clear the filter:\n%s", got)
	}
	if !strings.Contains(got, scale.Label(1)+" · "+target) {
		t.Errorf("esc moved the selection off the row found (detail pane):\n%s", got)
	}
	// The row found is the one invoked: i opens the editor on it.
	if got := screen(press(m, "i")); !strings.Contains(got, target) || !strings.Contains(got, scale.Label(1)) {
		t.Errorf("i after esc does not invoke the row found:\n%s", got)
	}
}

// ] jumps to the next server's first row, [ back; space folds a server
// to its status line and unfolds it; scrolling keeps the server's status
// line pinned to the top of the table.
func TestJumpFoldAndPinnedHeader(t *testing.T) {
	cfg := scaleConfig(t, 3, 48, 0)
	m, _ := openConfig(t, cfg, 80, 24)
	detail := func(m tea.Model) string {
		s := screen(m)
		return s[strings.Index(s, "DETAIL"):]
	}
	m = press(m, "]")
	if d := detail(m); !strings.Contains(d, scale.Label(1)+" · "+scale.Name(1, 0)) {
		t.Errorf("] does not select %s's first row:\n%s", scale.Label(1), d)
	}
	m = press(m, "j", "j", "[")
	if d := detail(m); !strings.Contains(d, scale.Label(1)+" · "+scale.Name(1, 0)) {
		t.Errorf("[ inside a server does not go back to its first row:\n%s", d)
	}
	m = press(m, "[")
	if d := detail(m); !strings.Contains(d, scale.Label(0)+" · "+scale.Name(0, 0)) {
		t.Errorf("[ on a server's first row does not go to the previous server:\n%s", d)
	}

	// Far down the first server, its status line is still the first line.
	m = press(m, strings.Split(strings.Repeat("j", 30), "")...)
	lines := strings.Split(screen(m), "\n")
	if !strings.HasPrefix(lines[2], "● "+scale.Label(0)+"  stdio  ok") || !strings.Contains(lines[3], "WIRE NAME") {
		t.Errorf("the server's header is not pinned over its rows:\n%s", screen(m))
	}
	if !strings.Contains(screen(m), "▸") {
		t.Errorf("the selected row is not in sight:\n%s", screen(m))
	}

	m = press(m, "space")
	got := screen(m)
	if !strings.Contains(got, "folded (space)") || strings.Contains(got, scale.Name(0, 30)) {
		t.Errorf("space does not fold %s:\n%s", scale.Label(0), got)
	}
	got = screen(press(m, "space"))
	if strings.Contains(got, "folded (space)") || !strings.Contains(got, scale.Name(0, 0)) {
		t.Errorf("space on the folded server does not unfold it:\n%s", got)
	}
}

// The compare view pins the active policy's column first, keeps its
// headers, and enter shows the selected row's every cell in full.
func TestCompareActiveFirstAndFullCells(t *testing.T) {
	cfg, sess := demoSession(t)
	var m tea.Model = ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = settle(t, m, cfg, sess)
	m = ui.Settle(press(m, "p", "p", "3"))
	lines := strings.Split(screen(m), "\n")
	if !strings.Contains(lines[3], "SERVER") || !strings.Contains(lines[3], "▸lionagi ") {
		t.Errorf("the column heads do not start with the active policy:\n%s", strings.Join(lines, "\n"))
	}
	got := screen(press(m, "j", "j", "enter"))
	for _, want := range []string{"beta · request", "lionagi-legacy         ✗ lost to alpha", "mcp__beta__request", "symfonic               beta.request"} {
		if !strings.Contains(got, want) {
			t.Errorf("enter's full cells lack %q:\n%s", want, got)
		}
	}
	if got := screen(press(m, "j", "j", "enter", "esc")); strings.Contains(got, "beta · request  (enter") {
		t.Errorf("esc does not close the full cells:\n%s", got)
	}
	got = screen(press(m, "]", "]", "enter"))
	if !strings.Contains(got, "gamma · literature.search_pubmed  (enter") {
		t.Errorf("] ] does not go to gamma's first row:\n%s", got)
	}
	got = screen(press(m, "]", "]", "j", "[", "[", "enter"))
	if !strings.Contains(got, "beta · request  (enter") {
		t.Errorf("[ [ from gamma's second row does not go to beta's first:\n%s", got)
	}
}

// buildGated builds testdata/servers/gated into a temporary directory.
func buildGated(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gated")
	cmd := exec.Command("go", "build", "-o", bin, "./testdata/servers/gated")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/servers/gated: %v\n%s", err, out)
	}
	return bin
}

// The gated view compares what each client connected as was advertised:
// after c connects as Claude Code, the gated server's claude_only is
// listed as advertised to claude-code and not to mcplens.
func TestGatedViewAfterClientSwitch(t *testing.T) {
	cfg := &config.Config{Path: "gated config", Servers: []config.ServerSpec{{Label: "g", Command: buildGated(t)}}}
	m, sess := openConfig(t, cfg, 160, 40)
	got := screen(press(m, "7"))
	if !strings.Contains(got, "connected as mcplens only") {
		t.Errorf("the gated view does not say only one client was seen:\n%s", got)
	}
	m = press(m, "c")
	m = settle(t, m, cfg, sess)
	got = screen(press(m, "7"))
	for _, want := range []string{"compared: mcplens, claude-code", "claude_only", "claude-code", "NOT TO"} {
		if !strings.Contains(got, want) {
			t.Errorf("the gated view lacks %q:\n%s", want, got)
		}
	}
	row := ""
	for _, l := range strings.Split(got, "\n") {
		if strings.Contains(l, "claude_only") && row == "" {
			row = l
		}
	}
	if f := strings.Fields(row); len(f) < 4 || f[len(f)-1] != "mcplens" || !strings.HasPrefix(f[2], "claude-code") {
		t.Errorf("claude_only's row = %q, want advertised to claude-code, not to mcplens", row)
	}
	got = screen(ui.Settle(press(m, "5")))
	if !strings.Contains(got, "gated-tool") {
		t.Errorf("the findings view lacks the gated-tool finding:\n%s", got)
	}
}

// The report key's note clears on the next key or after a while, and r
// asks before replacing a report an earlier run wrote.
func TestNotesPassAndReportAsks(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile(ui.ReportFile, []byte("# mcplens check: an earlier run\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var tm tea.Model = ui.New(ui.Options{Title: "test config", Servers: []config.ServerSpec{{Label: "a", Command: "srv"}}, Backend: quietBackend{}})
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	tm = pressRun(t, tm, "r")
	if s := screen(tm); !strings.Contains(s, ui.ReportFile+" holds the report of an earlier run: overwrite "+ui.ReportFile+"? y/n") {
		t.Fatalf("r over an earlier report does not ask:\n%s", s)
	}
	tm = pressRun(t, tm, "y")
	if s := screen(tm); !strings.Contains(s, "report written to ") {
		t.Fatalf("y does not write the report:\n%s", s)
	}
	tm = ui.ExpireNotes(tm, time.Now().Add(time.Second))
	if s := screen(tm); !strings.Contains(s, "report written to ") {
		t.Errorf("the note went before its time:\n%s", s)
	}
	tm = ui.ExpireNotes(tm, time.Now().Add(time.Minute))
	if s := screen(tm); strings.Contains(s, "report written to ") {
		t.Errorf("the note stays after its time:\n%s", s)
	}
	tm = pressRun(t, tm, "r") // this run's own report: replaced without asking
	if s := screen(tm); !strings.Contains(s, "report written to ") {
		t.Fatalf("r over this run's report asks or fails:\n%s", s)
	}
	if s := screen(press(tm, "j")); strings.Contains(s, "report written to ") {
		t.Errorf("the note stays after a key:\n%s", s)
	}
}

// At 80x24 the help screen scrolls to its end, and lays every group of
// keys out, none cut off.
func TestHelpScrollsAt80x24(t *testing.T) {
	var m tea.Model = ui.New(ui.Options{Title: "test config", Servers: []config.ServerSpec{{Label: "a", Command: "srv"}}, Backend: quietBackend{}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = press(m, "?")
	top := screen(m)
	if !strings.Contains(top, "mcplens help") || !strings.Contains(top, "? help") || !strings.Contains(top, "q quit") {
		t.Errorf("help at 80x24:\n%s", top)
	}
	got := screen(press(m, "G"))
	for _, want := range []string{"then overwritten", "rejected"} {
		if !strings.Contains(got, want) {
			t.Errorf("help scrolled to its end lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "mcplens help") {
		t.Errorf("G did not scroll the help:\n%s", got)
	}
	all := top + got
	for _, want := range []string{"write report", "wire pane", "fold server"} {
		if !strings.Contains(all, want) {
			t.Errorf("help lacks the key %q:\n%s\n%s", want, top, got)
		}
	}
}

// At 80x24, after a call from the last row the result pane takes more of
// the screen, and the row called stays in sight.
func TestCalledRowStaysInSight(t *testing.T) {
	cfg, sess := demoSession(t)
	var m tea.Model = ui.New(ui.Options{Title: "demo config", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = settle(t, m, cfg, sess)
	m = press(m, "G", "i")
	m = send(t, m)
	got := screen(m)
	row := ""
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "▸ ") {
			row = l
		}
	}
	if !strings.Contains(row, "search") {
		t.Errorf("the row called is not in sight after the call:\n%s", got)
	}
}

// The note of a client switch stays while servers reconnect, then passes
// a while after the last has settled.
func TestClientNotePasses(t *testing.T) {
	specs := []config.ServerSpec{{Label: "alpha"}, {Label: "beta"}}
	var asked []string
	b := reconnectBackend{benchBackend{events: make(chan mcpsession.Event)}, map[string]bool{"alpha": true}, &asked}
	var m tea.Model = ui.New(ui.Options{Title: "cfg.json", Servers: specs, Backend: b})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	m = press(m, "c")
	now := time.Now()
	m = ui.ExpireNotes(m, now.Add(time.Hour))
	if !strings.Contains(screen(m), "reconnecting 1 of 2 servers") {
		t.Fatalf("the note of a switch in progress passed:\n%s", screen(m))
	}
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "alpha", State: mcpsession.Ready}))
	m = ui.ExpireNotes(m, now)
	if !strings.Contains(screen(m), "1 of 2 servers reconnected") {
		t.Fatalf("the switch's end is not said:\n%s", screen(m))
	}
	m = ui.ExpireNotes(m, now.Add(time.Minute))
	if strings.Contains(screen(m), "servers reconnected") {
		t.Errorf("the switch's note stays after its time:\n%s", screen(m))
	}
}

// runFor runs cmd, and the commands of a batch, each on its own goroutine,
// and returns the first message want takes, or nil after 20 s.
func runFor(cmd tea.Cmd, want func(tea.Msg) bool) tea.Msg {
	msgs := make(chan tea.Msg, 64)
	var start func(tea.Cmd)
	start = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			msg := c()
			if batch, ok := msg.(tea.BatchMsg); ok {
				for _, c := range batch {
					start(c)
				}
				return
			}
			msgs <- msg
		}()
	}
	start(cmd)
	deadline := time.After(20 * time.Second)
	for {
		select {
		case msg := <-msgs:
			if want(msg) {
				return msg
			}
		case <-deadline:
			return nil
		}
	}
}

// Above 20,000 rows a query is matched by a command: the screen says it
// is finding, and the rows that match replace every row when it is done.
func TestFindLargeSurfaceInBackground(t *testing.T) {
	m := press(loaded(30_000), "/")
	target := scale.Name(100, 3)
	var cmds []tea.Cmd // the first key starts the match; the others wait for it
	for _, ch := range strings.Split(target, "") {
		var cmd tea.Cmd
		m, cmd = m.Update(ui.KeyPress(ch))
		cmds = append(cmds, cmd)
	}
	cmd := tea.Batch(cmds...)
	if got := screen(m); !strings.Contains(got, "finding among 30000 rows") {
		t.Errorf("the footer does not say the query is being matched:\n%s", got)
	}
	for range 10 { // the match of the last query typed, perhaps after others
		msg := runFor(cmd, ui.IsFoundRows)
		if msg == nil {
			t.Fatalf("no match arrived:\n%s", screen(m))
		}
		m, cmd = m.Update(msg)
		if !strings.Contains(screen(m), "finding among") {
			break
		}
	}
	got := screen(m)
	if !strings.Contains(got, "/"+target) || !strings.Contains(got, " · "+target+"  ") || !strings.Contains(got, " of 30000 rows") {
		t.Errorf("the best match is not selected, or the matches not counted:\n%s", got)
	}
	if strings.Contains(got, scale.Name(0, 1)+" ") {
		t.Errorf("a row that does not match is shown:\n%s", got)
	}
}
