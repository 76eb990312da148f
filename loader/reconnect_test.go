package loader_test

import (
	"strings"
	"testing"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
)

// TestReconnect: a server is connected again only with a handshake that
// differs from its own; the new connection sends it, announced by
// Connecting, and the frame log keeps both.
func TestReconnect(t *testing.T) {
	cfg := demoConfig()
	s := open(t, cfg, loader.Options{})
	settle(t, s, cfg)
	label := cfg.Servers[0].Label
	vscode := mustClient(t, "vscode")

	if s.Reconnect(label, loader.Options{}.Handshake) {
		t.Errorf("Reconnect(%s, neutral) = true, want false: it was connected so", label)
	}
	if s.Reconnect("nobody", vscode.Handshake) {
		t.Error("Reconnect(unknown label) = true, want false")
	}
	if !s.Reconnect(label, vscode.Handshake) {
		t.Fatalf("Reconnect(%s, vscode) = false, want true", label)
	}
	if s.Reconnect(label, vscode.Handshake) {
		t.Errorf("Reconnect(%s, vscode) again = true, want false", label)
	}
	var states []string
	for {
		ev := nextState(t, s, settleTimeout)
		if ev.Server != label {
			continue
		}
		if st := ev.State.String(); len(states) == 0 || states[len(states)-1] != st {
			states = append(states, st) // Connecting comes again when the old connection was slow to end
		}
		if ev.State == mcpsession.Ready || ev.State == mcpsession.Failed {
			break
		}
	}
	if got := strings.Join(states, " "); got != "connecting ready" {
		t.Errorf("states after Reconnect = %q, want %q", got, "connecting ready")
	}
	var clients []string
	for _, f := range s.FrameLog(label).Frames() {
		if m, _ := method(t, f.Bytes); f.Dir == mcpsession.Out && handshakeMethod(m) {
			clients = append(clients, string(f.Bytes))
		}
	}
	if len(clients) != 2 || !strings.Contains(clients[1], `"method":"initialize"`) || !strings.Contains(clients[1], vscode.Handshake.ClientInfo.Name) {
		t.Errorf("handshake frames = %q, want two, the second an initialize as %s", clients, vscode.Handshake.ClientInfo.Name)
	}
}
