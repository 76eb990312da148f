package loader_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// readyAgain waits for the server label to be Ready or Failed after a
// Reconnect.
func readyAgain(t *testing.T, s *loader.Session, label string) mcpsession.Event {
	t.Helper()
	for {
		if ev := nextState(t, s, settleTimeout); ev.Server == label && (ev.State == mcpsession.Ready || ev.State == mcpsession.Failed) {
			return ev
		}
	}
}

// outFrames returns the params of the frames of method mcplens wrote to
// label, in order.
func outFrames(t *testing.T, s *loader.Session, label, name string) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	for _, f := range s.FrameLog(label).Frames() {
		var msg struct {
			Method string
			Params json.RawMessage
		}
		if f.Dir == mcpsession.Out && json.Unmarshal(f.Bytes, &msg) == nil && msg.Method == name {
			out = append(out, msg.Params)
		}
	}
	return out
}

// TestReconnectKeepsLogLevel: the level set with SetLogLevel is set again
// on the new connection a Reconnect makes.
func TestReconnectKeepsLogLevel(t *testing.T) {
	s, _ := openEverything(t, loader.Options{})
	if err := s.SetLogLevel("everything", "error"); err != nil {
		t.Fatal(err)
	}
	if !s.Reconnect("everything", mustClient(t, "vscode").Handshake) {
		t.Fatal("Reconnect = false")
	}
	if ev := readyAgain(t, s, "everything"); ev.State != mcpsession.Ready {
		t.Fatalf("after Reconnect: %s %s", ev.State, ev.Err)
	}
	var levels []string
	for deadline := time.Now().Add(settleTimeout); len(levels) < 2 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		levels = levels[:0]
		for _, p := range outFrames(t, s, "everything", "logging/setLevel") {
			var params struct{ Level string }
			_ = json.Unmarshal(p, &params)
			levels = append(levels, params.Level)
		}
	}
	if len(levels) != 2 || levels[1] != "error" {
		t.Errorf("logging/setLevel sent with levels %q, want error twice: once set, once after the reconnect", levels)
	}
	if got := s.LogLevel("everything"); got != "error" {
		t.Errorf("LogLevel = %q, want error", got)
	}
}

// TestReconnectRemembersFallback: a stateless handshake to a server that
// ignores server/discover probes once per session; a reconnect asks with
// initialize straight away, at the fallback's revision.
func TestReconnectRemembersFallback(t *testing.T) {
	spec := testServer("silent", "silent")
	cfg := &config.Config{Servers: []config.ServerSpec{spec}}
	h := eraHandshake(model.Revision20260728)
	s := open(t, cfg, loader.Options{Handshake: h})
	if _, last := settle(t, s, cfg); last["silent"].State != mcpsession.Ready {
		t.Fatalf("silent: %s %s", last["silent"].State, last["silent"].Err)
	}
	h.ClientInfo.Name = "another"
	if !s.Reconnect("silent", h) {
		t.Fatal("Reconnect = false")
	}
	ev := readyAgain(t, s, "silent")
	if ev.State != mcpsession.Ready || ev.Protocol != model.Revision20251125 {
		t.Fatalf("after Reconnect: %s %s, protocol %s; want ready at %s", ev.State, ev.Err, ev.Protocol, model.Revision20251125)
	}
	if probes := outFrames(t, s, "silent", "server/discover"); len(probes) != 1 {
		t.Errorf("%d server/discover probes, want 1: the first connect's", len(probes))
	}
	inits := outFrames(t, s, "silent", "initialize")
	var last struct {
		ProtocolVersion string
		ClientInfo      struct{ Name string }
	}
	if len(inits) != 2 || json.Unmarshal(inits[1], &last) != nil || last.ProtocolVersion != model.Revision20251125 || last.ClientInfo.Name != "another" {
		t.Errorf("initialize frames %s, want two, the second from another at %s", inits, model.Revision20251125)
	}
}
