package ui_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/ui"
)

// TestHistoryMasksSecrets: a server that dumps its environment in a tool
// result (the hostile server's leak mode) has none of its config's
// secrets written to the history file nor shown on the screen: env values
// named as secrets, short or long, and a webhook URL known by its shape.
func TestHistoryMasksSecrets(t *testing.T) {
	secrets := []string{"hunter2", "opensesame99", "T000/B000/XXXX"}
	env := []config.EnvVar{{Key: "PASSWORD", Value: "hunter2"}, {Key: "DB_PASS", Value: "opensesame99"},
		{Key: "NOTIFY", Value: "https://hooks.slack.com/services/T000/B000/XXXX"}, {Key: "KEYBOARD_LAYOUT", Value: "dvorak-intl"}}
	cfg, sess := hostileSessionWithin(t, 20*time.Second, "leak", env)
	path := filepath.Join(t.TempDir(), "calls.jsonl")
	var m tea.Model = ui.New(ui.Options{Title: "leak", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m, _ = pump(t, m, cfg, sess, 0)
	if err := ui.OpenHistory(m, path); err != nil {
		t.Fatal(err)
	}
	m = press(m, "G", "i")
	if got := screen(m); !strings.Contains(got, "invoke echo") {
		t.Fatalf("G, i did not open h's echo:\n%s", got)
	}
	m = sendAndWrite(t, m)
	written := string(mustRead(t, path))
	for _, want := range []string{"PASSWORD=****", "DB_PASS=****", "NOTIFY=****", "KEYBOARD_LAYOUT=dvorak-intl"} {
		if !strings.Contains(written, want) {
			t.Errorf("history lacks %q (the leak, masked):\n%s", want, written)
		}
	}
	shown := screen(m)
	for _, secret := range secrets {
		if strings.Contains(written, secret) {
			t.Errorf("history holds %q:\n%s", secret, written)
		}
		if strings.Contains(shown, secret) {
			t.Errorf("the screen shows %q:\n%s", secret, shown)
		}
	}
}
