package ui_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// TestReader runs the reader's tests against testdata/servers/reader,
// built once for all of them.
func TestReader(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "reader")
	cmd := exec.Command("go", "build", "-o", bin, "./testdata/servers/reader")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/servers/reader: %v\n%s", err, out)
	}
	for _, tt := range []struct {
		name string
		test func(*testing.T, string)
	}{
		{"result", testResultReader},
		{"resize", testResultReaderResize},
		{"frame", testFrameReader},
		{"pair", testPairReader},
		{"detail", testDetailReader},
		{"content", testResultContent},
		{"last result", testLastResultReachable},
		{"help", testReaderHelp},
	} {
		t.Run(tt.name, func(t *testing.T) { tt.test(t, bin) })
	}
}

// readerModel is the interface on a config of the reader server bin
// alone, at width × height, its server settled.
func readerModel(t *testing.T, bin string, width, height int) tea.Model {
	t.Helper()
	cfg := &config.Config{Servers: []config.ServerSpec{{Label: "reader", Command: bin}}}
	sess := loader.Open(cfg, loader.Options{Timeout: 20 * time.Second, Protocol: model.Revision20251125}) // the frames of initialize, as demoSession
	t.Cleanup(func() { sess.Close() })
	var m tea.Model = ui.New(ui.Options{Title: "reader config", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	return settle(t, m, cfg, sess)
}

// invokeRow selects the row named wire and calls it with no arguments.
func invokeRow(t *testing.T, m tea.Model, wire string) tea.Model {
	t.Helper()
	m = selectRow(t, m, wire)
	m = press(m, "i")
	if got := screen(m); !strings.Contains(got, "invoke "+wire) {
		t.Fatalf("the editor is not on %s:\n%s", wire, got)
	}
	return send(t, m)
}

// selectRow moves the cursor to the row named wire.
func selectRow(t *testing.T, m tea.Model, wire string) tea.Model {
	t.Helper()
	m = press(m, "g")
	for range 10 {
		if strings.Contains(screen(m), "▸  "+wire+" ") {
			return m
		}
		m = press(m, "down")
	}
	t.Fatalf("no row %s:\n%s", wire, screen(m))
	return m
}

// steady masks what changes from run to run: times and latencies.
func steady(s string) string {
	s = regexp.MustCompile(`\d+\.\d ms`).ReplaceAllString(s, "N ms")
	s = regexp.MustCompile(`\d\d:\d\d:\d\d(\.\d{3})?`).ReplaceAllString(s, "hh:mm:ss")
	return regexp.MustCompile(`(?m) +$`).ReplaceAllString(s, "")
}

// fits fails when a line of got is wider than width.
func fits(t *testing.T, got string, width int) {
	t.Helper()
	for i, l := range strings.Split(got, "\n") {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("line %d is %d columns wide in a %d-column window: %q", i, w, width, l)
		}
	}
}

// goldenAtSizes checks the screen against the goldens name-WxH at 80x24,
// 120x40 and 200x60, and that no line is wider than the window.
func goldenAtSizes(t *testing.T, m tea.Model, name string) {
	t.Helper()
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}, {200, 60}} {
		m, _ := m.Update(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
		got := screen(m)
		fits(t, got, sz.w)
		footerKeeps(t, got)
		golden(t, fmt.Sprintf("%s-%dx%d", name, sz.w, sz.h), steady(got))
	}
}

// footerKeeps fails unless the footer of screen, a reader's, keeps esc
// close, ? help and q quit, whatever else it had no room for.
func footerKeeps(t *testing.T, screen string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	foot := lines[len(lines)-1]
	for _, want := range []string{"esc close", "? help", "q quit"} {
		if !strings.Contains(foot, want) {
			t.Errorf("the reader's footer %q lacks %q", foot, want)
		}
	}
}

// testResultReader invokes a tool answering 300 lines of text, reads the
// result in the reader at three sizes, goes to its end and searches it.
func testResultReader(t *testing.T, bin string) {
	m := readerModel(t, bin, 120, 40)
	m = invokeRow(t, m, "lines")
	if got := screen(m); !strings.Contains(got, "line 001 of 300: the quick brown fox") || !strings.Contains(got, "e reads the whole result") {
		t.Fatalf("the result pane does not show the text as text, and how to read the rest:\n%s", got)
	}
	m = press(m, "e")
	goldenAtSizes(t, m, "reader-result")
	got := screen(press(m, "G"))
	pos := regexp.MustCompile(`lines \d+–(\d+) of (\d+)`).FindStringSubmatch(got)
	if !strings.Contains(got, "more: the content above reads them") || pos == nil || pos[1] != pos[2] {
		t.Errorf("G does not reach the end of the result:\n%s", got)
	}
	// The response frame is shown up to 16 KiB: the text's line 300 is the
	// one match.
	m = press(m, "g", "/", "l", "i", "n", "e", " ", "3", "0", "0", "enter")
	got = screen(m)
	if !strings.Contains(got, "\nline 300 of 300: the quick") || !strings.Contains(got, "/line 300: match 1 of 1") {
		t.Errorf("searching /line 300 does not show the line:\n%s", got)
	}
	narrow, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	footerKeeps(t, screen(narrow))
	// With the search kept, y still says what it does.
	if got := screen(press(m, "y")); !strings.Contains(got, "copying the result") || !strings.Contains(got, "/line 300: match 1 of 1") {
		t.Errorf("y with a search kept says nothing in the footer:\n%s", got)
	}
	// / again types a new query, not more of the one kept.
	again := press(m, "g", "/", "l", "i", "n", "e", " ", "0", "0", "7", "enter")
	if got := screen(again); !strings.Contains(got, "/line 007: match 1 of") || strings.Contains(got, "line 300line") {
		t.Errorf("/ after a kept search does not start a new one:\n%s", got)
	}
	m = press(m, "esc", "esc")
	if got := screen(m); !strings.Contains(got, "CALL ─") || strings.Contains(got, "RESULT") {
		t.Errorf("esc, esc does not leave the search, then the reader:\n%s", got)
	}
}

// testResultReaderResize resizes the window while a result is read: the
// lines are wrapped again to the new width, and the place read is kept.
func testResultReaderResize(t *testing.T, bin string) {
	m := readerModel(t, bin, 200, 60)
	m = invokeRow(t, m, "lines")
	m = press(m, "e")
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	got := screen(m)
	fits(t, got, 80)
	if !strings.Contains(got, "RESULT") || !strings.Contains(got, "line 056 of 300") {
		t.Errorf("after the resize the reader is not where it was:\n%s", got)
	}
	golden(t, "reader-result-resized", steady(got))
}

// testFrameReader opens the initialize response frame from the wire pane
// and reads the server's capabilities in it, at three sizes.
func testFrameReader(t *testing.T, bin string) {
	m := readerModel(t, bin, 120, 40)
	m = press(m, "w", "/", "i", "n", "i", "t", "i", "a", "l", "i", "z", "e", "enter", "g", "J")
	if got := screen(m); !strings.Contains(got, "▸ initialize") || !strings.Contains(got, "reader ← {") {
		t.Fatalf("J did not select the initialize response:\n%s", got)
	}
	m, cmd := m.Update(ui.KeyPress("enter"))
	m = deliver(t, m, cmd)
	goldenAtSizes(t, m, "reader-frame")
	if got := screen(m); !strings.Contains(got, `"capabilities": {`) || !strings.Contains(got, "FRAME reader ← initialize #1") {
		t.Errorf("the frame reader does not show the capabilities:\n%s", got)
	}
	// J reads the request the response answers.
	m, cmd = m.Update(ui.KeyPress("J"))
	m = deliver(t, m, cmd)
	if got := screen(m); !strings.Contains(got, "FRAME reader → initialize #1") || !strings.Contains(got, `"clientInfo": {`) {
		t.Errorf("J in the frame reader does not read the request:\n%s", got)
	}
}

// testPairReader: | in the frame reader shows the initialize request and
// its response side by side from 120 columns, one above the other below,
// and reflows on resize.
func testPairReader(t *testing.T, bin string) {
	m := readerModel(t, bin, 160, 48)
	m = press(m, "w", "/", "i", "n", "i", "t", "i", "a", "l", "i", "z", "e", "enter", "g", "J")
	m, cmd := m.Update(ui.KeyPress("enter"))
	m = deliver(t, m, cmd)
	if got := screen(m); !strings.Contains(got, "| request | response side by side") {
		t.Errorf("the frame reader's footer does not offer |:\n%s", got)
	}
	m, cmd = m.Update(ui.KeyPress("|"))
	m = deliver(t, m, cmd)
	for _, sz := range boxSizes {
		m, _ = m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		got := screen(m)
		fits(t, got, sz[0])
		if !strings.Contains(got, "REQUEST | RESPONSE reader initialize #1") {
			t.Errorf("at %dx%d | did not open the pair:\n%s", sz[0], sz[1], got)
		}
		side := false
		for _, l := range strings.Split(got, "\n") {
			side = side || strings.Contains(l, "REQUEST") && strings.Contains(l, "│ RESPONSE")
		}
		if side != (sz[0] >= 120) {
			t.Errorf("at %dx%d side by side is %v, want %v:\n%s", sz[0], sz[1], side, sz[0] >= 120, got)
		}
		golden(t, fmt.Sprintf("reader-pair-%dx%d", sz[0], sz[1]), steady(got))
	}
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	if got := screen(m); !strings.Contains(got, `"clientInfo": {`) || !strings.Contains(got, `"capabilities": {`) {
		t.Errorf("the pair lacks the request's clientInfo or the response's capabilities:\n%s", got)
	}
}

// deliver runs cmd and hands m every message it gives.
func deliver(t *testing.T, m tea.Model, cmd tea.Cmd) tea.Model {
	t.Helper()
	for _, msg := range ui.Run(cmd) {
		m, _ = m.Update(msg)
	}
	return m
}

// testDetailReader reads a tool's detail whole: annotations as badges,
// the description, and both schemas pretty-printed.
func testDetailReader(t *testing.T, bin string) {
	m := readerModel(t, bin, 120, 40)
	m = selectRow(t, m, "bad_report")
	m = press(m, "e")
	goldenAtSizes(t, m, "reader-detail")
	got := screen(m)
	for _, want := range []string{"annotations: not read-only [destructive] not idempotent", "output schema", `"enum": [`, "Answers with structured content that breaks"} {
		if !strings.Contains(got, want) {
			t.Errorf("the detail reader lacks %q:\n%s", want, got)
		}
	}
}

// testResultContent checks each kind of content is shown as what it is:
// an image by its type, size and dimensions (o saves its bytes), audio,
// resources, a tool error at the top, and structured content checked
// against the outputSchema.
func testResultContent(t *testing.T, bin string) {
	m := readerModel(t, bin, 160, 50)
	tests := []struct {
		tool   string
		want   []string
		reject []string
	}{
		{"media", []string{"four kinds of content follow", "image image/png · 80 B · 16×16   o saves it", "audio audio/wav · 1.5 KB   o saves it",
			"resource link file:///srv/report.pdf", "report.pdf · application/pdf · 2.0 KB", "resource mem://notes.txt", "embedded notes", "second line"},
			[]string{"iVBORw0KGgo", "AAAAAAAA"}},
		{"report", []string{"structuredContent", `"count": 3,`}, []string{"breaks the outputSchema"}},
		{"bad_report", []string{"! structuredContent breaks the outputSchema: at /count: got string, want integer",
			"! structuredContent breaks the outputSchema: at /status: value must be one of 'ok', 'degraded'"}, nil},
		{"broken", []string{"✗ the tool reported an error (isError)", "\nthe disk is full", "\nnothing was written"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			m := press(invokeRow(t, m, tt.tool), "e")
			got := screen(m)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("the result lacks %q:\n%s", w, got)
				}
			}
			content, _, _ := strings.Cut(got, "wire (the exact bytes)") // the frames hold the bytes
			for _, r := range tt.reject {
				if strings.Contains(content, r) {
					t.Errorf("the result shows %q:\n%s", r, got)
				}
			}
		})
	}
	t.Run("isError first", func(t *testing.T) {
		got := screen(invokeRow(t, m, "broken"))
		if i := strings.Index(got, "CALL ─"); i < 0 || !strings.HasPrefix(strings.SplitN(got[i:], "\n", 3)[1], "✗ the tool reported an error (isError)") {
			t.Errorf("isError is not the first line of the result:\n%s", got)
		}
	})
	t.Run("save", func(t *testing.T) {
		dir := t.TempDir()
		t.Chdir(dir)
		m := press(invokeRow(t, m, "media"), "e")
		m, cmd := m.Update(ui.KeyPress("o"))
		m = deliver(t, m, cmd)
		if got := screen(m); !strings.Contains(got, "saved to mcplens-media.png, mcplens-media.wav (readable by you alone)") {
			t.Fatalf("o did not say where it saved the image and the audio:\n%s", got)
		}
		fi, err := os.Stat(filepath.Join(dir, "mcplens-media.png"))
		if err != nil || fi.Mode().Perm() != 0o600 || fi.Size() != 80 {
			t.Errorf("saved image: %v, %v; want 80 bytes, mode 0600", fi, err)
		}
		if fi, err := os.Stat(filepath.Join(dir, "mcplens-media.wav")); err != nil || fi.Mode().Perm() != 0o600 || fi.Size() != 1500 {
			t.Errorf("saved audio: %v, %v; want 1500 bytes, mode 0600", fi, err)
		}
	})
	t.Run("copy name", func(t *testing.T) {
		m := selectRow(t, m, "report")
		m, cmd := m.Update(ui.KeyPress("y"))
		m = deliver(t, m, cmd)
		if got := screen(m); !strings.Contains(got, "copied the registered name report (6 B)") {
			t.Errorf("y on a row did not copy its registered name:\n%s", got)
		}
	})
	t.Run("copy", func(t *testing.T) {
		m := press(invokeRow(t, m, "report"), "e")
		m, cmd := m.Update(ui.KeyPress("y"))
		m = deliver(t, m, cmd)
		if got := screen(m); !strings.Contains(got, "copied the result (") {
			t.Errorf("y did not copy the result:\n%s", got)
		}
	})
}

// testLastResultReachable moves off a result and brings it back with b
// from the detail pane, which names it.
func testLastResultReachable(t *testing.T, bin string) {
	m := readerModel(t, bin, 120, 40)
	m = invokeRow(t, m, "lines")
	m = press(m, "up")
	if got := screen(m); strings.Contains(got, "CALL ─") {
		t.Fatalf("moving did not leave the result:\n%s", got)
	}
	m = press(m, "down")
	if got := screen(m); !strings.Contains(got, "last result: ok") || !strings.Contains(got, "b shows it") {
		t.Fatalf("the detail pane does not name the last result:\n%s", got)
	}
	if got := screen(press(m, "b")); !strings.Contains(got, "CALL ─") || !strings.Contains(got, "line 001 of 300") {
		t.Errorf("R does not show the last result again:\n%s", got)
	}
}

// testReaderHelp: ? in the reader shows the help screen with the reader's
// keys, and esc comes back to the reader, where it was.
func testReaderHelp(t *testing.T, bin string) {
	m := readerModel(t, bin, 120, 40)
	m = press(selectRow(t, m, "bad_report"), "e", "?")
	if got := screen(m); !strings.Contains(got, "next/previous match") || strings.Contains(got, "DETAIL reader") {
		t.Fatalf("? in the reader does not show its keys:\n%s", got)
	}
	if got := screen(press(m, "esc")); !strings.Contains(got, "DETAIL reader · bad_report") {
		t.Errorf("esc does not come back to the reader:\n%s", got)
	}
}
