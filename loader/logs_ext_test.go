package loader_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
)

// TestEverythingLogs asks server-everything, over stdio, for every level
// of log message, turns its simulated logging on and waits for a message.
func TestEverythingLogs(t *testing.T) {
	entry := everythingEntry(t)
	spec := config.ServerSpec{Label: "everything", Transport: config.TransportStdio, Command: "node", Args: []string{entry, "stdio"}}
	cfg := &config.Config{Servers: []config.ServerSpec{spec}}
	s := open(t, cfg, loader.Options{})
	if _, last := settle(t, s, cfg); last["everything"].State != mcpsession.Ready {
		t.Fatalf("event = %+v, want Ready", last["everything"])
	}
	if err := s.SetLogLevel("everything", "debug"); err != nil {
		t.Fatalf("SetLogLevel: %v", err)
	}
	if err := s.SetLogLevel("everything", "loud"); err == nil {
		t.Error("SetLogLevel(loud) = nil, want an unknown level refused")
	}
	if _, err := s.Call(context.Background(), "everything", "toggle-simulated-logging", nil); err != nil {
		t.Fatalf("toggle-simulated-logging: %v", err)
	}
	deadline := time.Now().Add(settleTimeout)
	for {
		if msgs, _ := s.Logs("everything"); len(msgs) > 0 {
			m := msgs[0]
			if m.Server != "everything" || m.Level == "" || !strings.Contains(m.Data, "message") {
				t.Errorf("log message = %+v, want a level and the data", m)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no log message from server-everything")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSetLogLevelRefused checks that a server that does not declare
// logging is not asked.
func TestSetLogLevelRefused(t *testing.T) {
	cfg := demoConfig()
	s := open(t, cfg, loader.Options{})
	settle(t, s, cfg)
	label := cfg.Servers[0].Label
	err := s.SetLogLevel(label, "info")
	if err == nil || !strings.Contains(err.Error(), "does not declare logging") {
		t.Errorf("SetLogLevel on %s = %v, want refused for lack of the logging capability", label, err)
	}
	if err := s.SetLogLevel("nobody", "info"); err == nil {
		t.Error("SetLogLevel on an unknown server = nil, want an error")
	}
}
