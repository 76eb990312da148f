package ui_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/ui"
)

// readerSession builds testdata/servers/reader and opens a config of that
// one server, as `reader`.
func readerSession(t *testing.T) (*config.Config, *loader.Session) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "reader")
	cmd := exec.Command("go", "build", "-o", bin, "./testdata/servers/reader")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/servers/reader: %v\n%s", err, out)
	}
	cfg := &config.Config{Servers: []config.ServerSpec{{Label: "reader", Command: bin}}}
	sess := loader.Open(cfg, loader.Options{Timeout: 20 * time.Second})
	t.Cleanup(func() { sess.Close() })
	return cfg, sess
}

// readerModel is the interface on the reader server at width × height,
// its servers settled.
func readerModel(t *testing.T, width, height int) tea.Model {
	t.Helper()
	cfg, sess := readerSession(t)
	var m tea.Model = ui.New("reader config", cfg.Servers, sess)
	m, _ = m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	return settle(t, m, cfg, sess)
}

// invokeRow selects the row named wire and calls it with no arguments.
func invokeRow(t *testing.T, m tea.Model, wire string) tea.Model {
	t.Helper()
	m = press(m, "g")
	for range 10 {
		if strings.Contains(screen(m), "DETAIL\n") || strings.Contains(screen(m), "reader · "+wire+" ") {
			break
		}
		m = press(m, "down")
	}
	m = press(m, "i")
	if got := screen(m); !strings.Contains(got, "invoke "+wire) {
		t.Fatalf("the editor is not on %s:\n%s", wire, got)
	}
	return send(t, m)
}

func TestReaderDebug(t *testing.T) {
	m := readerModel(t, 120, 40)
	m = invokeRow(t, m, "lines")
	t.Log(screen(m))
	m = press(m, "e")
	t.Log(screen(m))
	m = press(m, "G")
	t.Log(screen(m))
}
