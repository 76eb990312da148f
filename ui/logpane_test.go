package ui_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/ui"
)

// logBackend is a backend whose servers sent log messages, and which
// records the levels asked for.
type logBackend struct {
	quietBackend
	msgs  map[string][]loader.LogMessage
	asked *[]string // "server=level"
}

func (b logBackend) Logs(server string) ([]loader.LogMessage, int) {
	if server == "api" {
		return b.msgs[server], 3
	}
	return b.msgs[server], 0
}

func (b logBackend) SetLogLevel(server, level string) error {
	*b.asked = append(*b.asked, server+"="+level)
	return nil
}

// The log pane shows every server's messages in time order, levels and
// loggers, the data escaped and masked; L asks the servers that declare
// logging, and only them, for the next level.
func TestLogPane(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2026, 1, 2, 3, 4, s, 0, time.Local) }
	specs := []config.ServerSpec{
		{Label: "api", Command: "srv"},
		{Label: "db", Command: "srv", Env: []config.EnvVar{{Key: "TOKEN", Value: "s3cr3t-value"}}},
	}
	var asked []string
	b := logBackend{asked: &asked, msgs: map[string][]loader.LogMessage{
		"api": {
			{At: at(1), Server: "api", Level: "info", Logger: "http", Data: `"listening on :8080"`},
			{At: at(4), Server: "api", Level: "emergency", Data: `{"disk":"full"}`},
		},
		"db": {
			{At: at(2), Server: "db", Level: "warning", Logger: "pool", Data: `"slow query\u001b[31m"`},
			{At: at(3), Server: "db", Level: "debug", Data: `"token s3cr3t-value"`},
		},
	}}
	var m tea.Model = ui.New(ui.Options{Title: "logs", Servers: specs, Backend: b})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "api", State: mcpsession.Ready, ServerName: "api", Facts: mcpsession.ServerFacts{Capabilities: []string{"tools", "logging"}}}))
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "db", State: mcpsession.Ready, ServerName: "db", Facts: mcpsession.ServerFacts{Capabilities: []string{"tools"}}}))
	m = press(m, "m")
	golden(t, "log-pane", screen(m))
	if strings.Contains(screen(m), "s3cr3t-value") {
		t.Error("the log pane shows the config's secret")
	}

	m, cmd := m.Update(ui.KeyPress("M"))
	if cmd == nil {
		t.Fatal("M sent no logging/setLevel")
	}
	m, _ = m.Update(cmd())
	if !slices.Equal(asked, []string{"api=debug"}) {
		t.Errorf("asked %q, want only api (the server that declares logging) for debug", asked)
	}
	if s := screen(m); !strings.Contains(s, "log level debug: api") {
		t.Errorf("footer does not say which servers were asked:\n%s", s)
	}
}
